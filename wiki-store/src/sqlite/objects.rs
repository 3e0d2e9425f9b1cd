//! The SQLite implementation of [`crate::ObjectStore`].

use std::collections::{BTreeMap, HashMap};

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params};

use crate::Result;
use crate::api::ObjectStore;
use crate::model::class::ClassDefinition;
use crate::model::document::SaveOutcome;
use crate::model::locale::Locale;
use crate::model::object::{
    ClassChange, ClassUsage, FieldChange, FieldValue, ObjectDelete, ObjectHit, ObjectPage,
    ObjectRecord, ObjectWrite, ObjectWriteOutcome,
};
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::objects::coerce::StoredValue;
use crate::objects::query::{ObjectQuery, SCAN_CEILING, check_query};
use crate::plan::class::{
    PlannedChange, class_reference, plan_field_change, validate_class_change,
};
use crate::plan::document::all_unchanged;
use crate::plan::object::{
    coerce_values, holds_values, object_touch, unknown_class, unknown_object,
    validate_object_delete, validate_object_write, visible_values,
};
use crate::plan::owner::Touch;
use crate::reference::DocumentReference;
use crate::scan::{AuthorizedScan, MAX_EXAMINED, Offered};
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::documents::default_row_id;
use crate::sqlite::object_query::{compile, sql_value};
use crate::sqlite::owner::{self, require_document};
use crate::sqlite::write::WriteTx;
use crate::stored::{self, corrupt, object_number, to_i64};

impl ObjectStore for SqliteStore {
    fn class(&self, class_document: &DocumentReference) -> Result<Option<ClassDefinition>> {
        self.read(|conn| load_class(conn, class_document))
    }

    fn change_class(&self, change: &ClassChange) -> Result<SaveOutcome> {
        let touch = validate_class_change(change, &self.config().limits)?;
        let locale = self.config().default_locale.clone();
        self.write(|tx| {
            let outcome = change_class_in(tx, &touch, &change.change, &locale)?;
            if matches!(outcome, SaveOutcome::Unchanged { .. }) {
                tx.nothing_changed();
            }
            Ok(outcome)
        })
    }

    fn class_usage(&self, wiki: &WikiId) -> Result<Vec<ClassUsage>> {
        self.read(|conn| {
            conn.prepare_cached(
                "SELECT o.class, count(*) FROM objects o JOIN documents d ON d.id = o.document_id \
                 WHERE d.wiki = ?1 GROUP BY o.class ORDER BY o.class LIMIT ?2",
            )
            .db()?
            .query_map(params![wiki.as_str(), to_i64(SCAN_CEILING)], |row| {
                Ok(ClassUsage {
                    class: row.get(0)?,
                    objects: row.get::<_, i64>(1)?.unsigned_abs(),
                })
            })
            .db()?
            .collect::<rusqlite::Result<Vec<_>>>()
            .db()
        })
    }

    fn objects(&self, reference: &DocumentReference) -> Result<Vec<ObjectRecord>> {
        self.read(|conn| {
            let document_id = require_document(conn, reference)?;
            let rows: Vec<(i64, String, i64)> = conn
                .prepare_cached("SELECT id, class, number FROM objects WHERE document_id = ?1 ORDER BY class, number")
                .db()?
                .query_map([document_id], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
                .db()?
                .collect::<rusqlite::Result<_>>()
                .db()?;
            let mut classes = ClassCache::default();
            rows.into_iter()
                .map(|(id, class, number)| {
                    let definition = classes.get(conn, reference.wiki(), &class)?;
                    Ok(ObjectRecord {
                        number: object_number(number)?,
                        values: read_values(conn, id, definition)?,
                        class,
                    })
                })
                .collect()
        })
    }

    fn write_object(&self, write: &ObjectWrite) -> Result<ObjectWriteOutcome> {
        let mut outcomes = self.write_objects(std::slice::from_ref(write))?;
        outcomes
            .pop()
            .ok_or_else(|| corrupt("object write outcome"))
    }

    fn write_objects(&self, writes: &[ObjectWrite]) -> Result<Vec<ObjectWriteOutcome>> {
        let prepared = writes
            .iter()
            .map(|write| Ok((write, validate_object_write(write, &self.config().limits)?)))
            .collect::<Result<Vec<_>>>()?;
        let locale = self.config().default_locale.clone();
        self.write(|tx| {
            let outcomes = prepared
                .iter()
                .map(|(write, class)| {
                    write_object_in(
                        tx,
                        &object_touch(write),
                        class,
                        write.number,
                        &write.values,
                        &locale,
                    )
                })
                .collect::<Result<Vec<_>>>()?;
            if all_unchanged(outcomes.iter().map(|outcome| &outcome.document)) {
                tx.nothing_changed();
            }
            Ok(outcomes)
        })
    }

    fn delete_object(&self, delete: &ObjectDelete) -> Result<SaveOutcome> {
        let (class, touch) = validate_object_delete(delete, &self.config().limits)?;
        let locale = self.config().default_locale.clone();
        self.write(|tx| {
            let document_id = require_document(tx, &delete.reference)?;
            let object_id = require_object(
                tx,
                document_id,
                &class.local(),
                delete.number,
                &delete.reference,
            )?;
            let (_, touched) = owner::touch(tx, &touch, &locale)?;
            tx.prepare_cached("DELETE FROM objects WHERE id = ?1")
                .db()?
                .execute([object_id])
                .db()?;
            Ok(touched.outcome())
        })
    }

    fn query_objects(
        &self,
        wiki: &WikiId,
        query: &ObjectQuery,
        offset: usize,
        limit: usize,
        authorize: &mut dyn FnMut(&DocumentReference) -> bool,
    ) -> Result<ObjectPage> {
        let class_document = class_reference(&query.class, wiki)?;
        self.read(|conn| {
            let class =
                load_class(conn, &class_document)?.ok_or_else(|| unknown_class(&class_document))?;
            let checked = check_query(
                &class,
                &ObjectQuery {
                    class: class.name.clone(),
                    ..query.clone()
                },
            )?;
            // Denied candidates do not count towards the ceiling: the scan reads on until it
            // has counted SCAN_CEILING authorized objects (or its examination budget ends).
            let compiled = compile(wiki, &checked, MAX_EXAMINED + 1);
            let mut statement = conn.prepare(&compiled.sql).db()?;
            let mut rows = statement
                .query(rusqlite::params_from_iter(compiled.params.iter()))
                .db()?;
            let mut hits = Vec::new();
            let mut scan = AuthorizedScan::new(offset, limit, SCAN_CEILING);
            while let Some(row) = rows.next().db()? {
                let space = stored::space(&row.get::<_, String>(1).db()?)?;
                let reference = stored::page(wiki, &space, row.get(2).db()?)?;
                match scan.offer(|| authorize(&reference)) {
                    Offered::Stop => break,
                    Offered::Passed => continue,
                    Offered::OnPage => {}
                }
                let id: i64 = row.get(0).db()?;
                hits.push(ObjectHit {
                    version: Version {
                        major: row.get(3).db()?,
                        minor: row.get(4).db()?,
                    },
                    object: ObjectRecord {
                        class: class.name.clone(),
                        number: object_number(row.get(5).db()?)?,
                        values: read_values(conn, id, Some(&class))?,
                    },
                    reference,
                });
            }
            Ok(ObjectPage {
                hits,
                total: scan.total(),
                truncated: scan.cut(),
            })
        })
    }
}

/// The class defined by `class_document`, disabled fields included; `None` if the document
/// defines no field.
pub(crate) fn load_class(
    conn: &Connection,
    class_document: &DocumentReference,
) -> Result<Option<ClassDefinition>> {
    let Some(document_id) = default_row_id(conn, class_document)? else {
        return Ok(None);
    };
    let fields = conn
        .prepare_cached(
            "SELECT name, field_type, pretty_name, attributes, disabled FROM class_fields \
             WHERE document_id = ?1 ORDER BY position",
        )
        .db()?
        .query_map([document_id], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?,
                row.get(2)?,
                row.get::<_, String>(3)?,
                row.get(4)?,
            ))
        })
        .db()?
        .map(|raw| {
            let (name, type_name, pretty_name, attributes, disabled) = raw.db()?;
            stored::field_definition(name, &type_name, pretty_name, &attributes, disabled)
        })
        .collect::<Result<Vec<_>>>()?;
    if fields.is_empty() {
        return Ok(None);
    }
    Ok(Some(ClassDefinition {
        name: class_document.local(),
        fields,
    }))
}

/// Applies a field change: checked against the current class first, then the class document is
/// saved, then the field row changes. A modification that leaves the field as it is writes
/// nothing and returns [`SaveOutcome::Unchanged`] (after the compare-and-set check).
pub(crate) fn change_class_in(
    tx: &mut WriteTx<'_>,
    touch: &Touch<'_>,
    change: &FieldChange,
    locale: &Locale,
) -> Result<SaveOutcome> {
    let Some(planned) = plan_field_change(
        load_class(tx, touch.reference)?.as_ref(),
        touch.reference,
        change,
    )?
    else {
        let version = owner::untouched(tx, touch)?
            .ok_or_else(|| corrupt("class without its document row"))?;
        return Ok(SaveOutcome::Unchanged { version });
    };
    let (document_id, touched) = owner::touch(tx, touch, locale)?;
    match planned {
        PlannedChange::Upsert {
            name,
            field_type,
            pretty_name,
            attributes,
        } => {
            tx.prepare_cached(
                "INSERT INTO class_fields (document_id, name, position, field_type, pretty_name, attributes, disabled) \
                 VALUES (?1, ?2, (SELECT coalesce(max(position), -1) + 1 FROM class_fields WHERE document_id = ?1), \
                 ?3, ?4, ?5, 0) \
                 ON CONFLICT (document_id, name) DO UPDATE SET field_type = excluded.field_type, \
                 pretty_name = excluded.pretty_name, attributes = excluded.attributes, disabled = 0",
            )
            .db()?
            .execute(params![document_id, name, field_type, pretty_name, attributes])
            .db()?;
        }
        PlannedChange::Modify {
            name,
            pretty_name,
            attributes,
        } => {
            tx.prepare_cached(
                "UPDATE class_fields SET attributes = ?3, pretty_name = CASE WHEN ?4 THEN ?5 ELSE pretty_name END \
                 WHERE document_id = ?1 AND name = ?2",
            )
            .db()?
            .execute(params![document_id, name, attributes, pretty_name.is_some(), pretty_name.flatten()])
            .db()?;
        }
        PlannedChange::Disable { name } => {
            tx.prepare_cached(
                "UPDATE class_fields SET disabled = 1 WHERE document_id = ?1 AND name = ?2",
            )
            .db()?
            .execute(params![document_id, name])
            .db()?;
        }
    }
    Ok(touched.outcome())
}

/// Creates or updates one object: the class and every value are checked before anything is
/// written, then the owning document is saved, then the object and its values. An update whose
/// values (and title) are already stored writes nothing: the outcome's document is then
/// [`SaveOutcome::Unchanged`], and the caller decides whether the whole transaction was a no-op.
pub(crate) fn write_object_in(
    tx: &mut WriteTx<'_>,
    touch: &Touch<'_>,
    class_document: &DocumentReference,
    number: Option<u32>,
    values: &BTreeMap<String, String>,
    locale: &Locale,
) -> Result<ObjectWriteOutcome> {
    let class = load_class(tx, class_document)?.ok_or_else(|| unknown_class(class_document))?;
    let coerced = coerce_values(&class, values, number.is_none())?;
    let existing = match number {
        Some(number) => {
            let document_id = default_row_id(tx, touch.reference)?
                .ok_or_else(|| unknown_object(&class.name, number, touch.reference))?;
            Some((
                require_object(tx, document_id, &class.name, number, touch.reference)?,
                number,
            ))
        }
        None => None,
    };
    if let Some((object_id, number)) = existing
        && holds_values(&coerced, |field| stored_value(tx, object_id, field))?
        && let Some(version) = owner::untouched(tx, touch)?
    {
        return Ok(ObjectWriteOutcome {
            number,
            created_object: false,
            document: SaveOutcome::Unchanged { version },
        });
    }
    let (document_id, touched) = owner::touch(tx, touch, locale)?;
    let (object_id, number) = match existing {
        Some(found) => found,
        None => {
            let (id, number): (i64, i64) = tx
                .prepare_cached(
                    "INSERT INTO objects (document_id, class, number) VALUES (?1, ?2, \
                     (SELECT coalesce(max(number), -1) + 1 FROM objects WHERE document_id = ?1 AND class = ?2)) \
                     RETURNING id, number",
                )
                .db()?
                .query_row(params![document_id, class.name], |row| Ok((row.get(0)?, row.get(1)?)))
                .db()?;
            (id, object_number(number)?)
        }
    };
    let mut upsert = tx
        .prepare_cached(
            "INSERT INTO object_values (object_id, field, value) VALUES (?1, ?2, ?3) \
             ON CONFLICT (object_id, field) DO UPDATE SET value = excluded.value",
        )
        .db()?;
    let mut clear = tx
        .prepare_cached("DELETE FROM object_values WHERE object_id = ?1 AND field = ?2")
        .db()?;
    for (field, value) in &coerced {
        match value {
            Some(value) => upsert.execute(params![object_id, field, sql_value(value)]),
            None => clear.execute(params![object_id, field]),
        }
        .db()?;
    }
    Ok(ObjectWriteOutcome {
        number,
        created_object: existing.is_none(),
        document: touched.outcome(),
    })
}

/// The stored value of one field of an object, if set.
fn stored_value(conn: &Connection, object_id: i64, field: &str) -> Result<Option<StoredValue>> {
    let value: Option<Value> = conn
        .prepare_cached("SELECT value FROM object_values WHERE object_id = ?1 AND field = ?2")
        .db()?
        .query_row(params![object_id, field], |row| row.get(0))
        .optional()
        .db()?;
    value.map(from_sql_value).transpose()
}

/// A stored value read back: text, integer or real (anything else is corruption).
pub(crate) fn from_sql_value(value: Value) -> Result<StoredValue> {
    match value {
        Value::Text(text) => Ok(StoredValue::Text(text)),
        Value::Integer(n) => Ok(StoredValue::Integer(n)),
        Value::Real(x) => Ok(StoredValue::Real(x)),
        Value::Null | Value::Blob(_) => Err(corrupt("object value")),
    }
}

fn require_object(
    conn: &Connection,
    document_id: i64,
    class: &str,
    number: u32,
    reference: &DocumentReference,
) -> Result<i64> {
    conn.prepare_cached(
        "SELECT id FROM objects WHERE document_id = ?1 AND class = ?2 AND number = ?3",
    )
    .db()?
    .query_row(params![document_id, class, number], |row| row.get(0))
    .optional()
    .db()?
    .ok_or_else(|| unknown_object(class, number, reference))
}

/// The values of enabled fields of `class`; none when the class no longer exists (so a removed
/// class can never expose a sealed Password value).
pub(crate) fn read_values(
    conn: &Connection,
    object_id: i64,
    class: Option<&ClassDefinition>,
) -> Result<BTreeMap<String, FieldValue>> {
    if class.is_none() {
        return Ok(BTreeMap::new());
    }
    let rows = conn
        .prepare_cached("SELECT field, value FROM object_values WHERE object_id = ?1")
        .db()?
        .query_map([object_id], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, Value>(1)?))
        })
        .db()?
        .collect::<rusqlite::Result<Vec<_>>>()
        .db()?;
    let stored = rows
        .into_iter()
        .map(|(name, value)| Ok((name, from_sql_value(value)?)))
        .collect::<Result<Vec<_>>>()?;
    Ok(visible_values(class, stored))
}

/// Class definitions looked up once per listing.
#[derive(Default)]
pub(crate) struct ClassCache {
    loaded: HashMap<String, Option<ClassDefinition>>,
}

impl ClassCache {
    pub(crate) fn get(
        &mut self,
        conn: &Connection,
        wiki: &WikiId,
        class: &str,
    ) -> Result<Option<&ClassDefinition>> {
        if !self.loaded.contains_key(class) {
            let definition = match class_reference(class, wiki) {
                Ok(reference) => load_class(conn, &reference)?,
                Err(_) => None,
            };
            self.loaded.insert(class.to_owned(), definition);
        }
        Ok(self.loaded.get(class).and_then(Option::as_ref))
    }
}
