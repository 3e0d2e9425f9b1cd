//! The SQLite implementation of [`crate::ObjectStore`].

use std::collections::{BTreeMap, HashMap};

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params};

use crate::api::ObjectStore;
use crate::error::{Entity, InvalidInput};
use crate::model::class::{ClassDefinition, FieldDefinition, FieldType, validate_field_name};
use crate::model::document::SaveOutcome;
use crate::model::locale::Locale;
use crate::model::mcp_config::MCP_CONFIG_CLASS;
use crate::model::object::{
    ClassChange, ClassUsage, FieldChange, FieldValue, ObjectDelete, ObjectHit, ObjectPage,
    ObjectRecord, ObjectWrite, ObjectWriteOutcome,
};
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::objects::coerce::{StoredValue, coerce_value, decode_value};
use crate::objects::query::{ObjectQuery, SCAN_CEILING, check_query};
use crate::reference::{DocumentReference, RelativeReference, SpacePath};
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::{DbResultExt, corrupt};
use crate::sqlite::object_query::{compile, sql_value};
use crate::sqlite::owner::{Touch, require_document};
use crate::sqlite::write::WriteTx;
use crate::{Result, StoreError};

/// The longest field label, in characters.
const MAX_PRETTY_NAME: usize = 255;

impl ObjectStore for SqliteStore {
    fn class(&self, class_document: &DocumentReference) -> Result<Option<ClassDefinition>> {
        self.read(|conn| load_class(conn, class_document))
    }

    fn change_class(&self, change: &ClassChange) -> Result<SaveOutcome> {
        refuse_reserved(&change.class_document.local())?;
        validate_field_change(&change.change)?;
        let touch = Touch {
            reference: &change.class_document,
            author: &change.author,
            comment: &change.comment,
            major: change.major,
            expected: change.expected,
            title: None,
            create: matches!(change.change, FieldChange::Add { .. }),
            hidden_on_create: false,
        };
        touch.validate(&self.config().limits)?;
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
            .query_map(params![wiki.as_str(), SCAN_CEILING as i64], |row| {
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
            .map(|write| {
                let class = class_reference(&write.class, write.reference.wiki())?;
                refuse_reserved(&class.local())?;
                let touch = object_touch(write);
                touch.validate(&self.config().limits)?;
                Ok((write, class))
            })
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
            if outcomes
                .iter()
                .all(|outcome| matches!(outcome.document, SaveOutcome::Unchanged { .. }))
            {
                tx.nothing_changed();
            }
            Ok(outcomes)
        })
    }

    fn delete_object(&self, delete: &ObjectDelete) -> Result<SaveOutcome> {
        let class = class_reference(&delete.class, delete.reference.wiki())?;
        refuse_reserved(&class.local())?;
        let touch = Touch {
            reference: &delete.reference,
            author: &delete.author,
            comment: &delete.comment,
            major: false,
            expected: delete.expected,
            title: None,
            create: false,
            hidden_on_create: false,
        };
        touch.validate(&self.config().limits)?;
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
            let touched = touch.apply(tx, &locale)?;
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
            let class = load_class(conn, &class_document)?
                .ok_or_else(|| StoreError::not_found(Entity::Class, class_document.local()))?;
            let checked = check_query(
                &class,
                &ObjectQuery {
                    class: class.name.clone(),
                    ..query.clone()
                },
            )?;
            let compiled = compile(wiki, &checked, SCAN_CEILING + 1);
            let mut statement = conn.prepare(&compiled.sql).db()?;
            let mut rows = statement
                .query(rusqlite::params_from_iter(compiled.params.iter()))
                .db()?;
            let mut page = ObjectPage {
                hits: Vec::new(),
                total: 0,
                truncated: false,
            };
            let mut scanned = 0;
            while let Some(row) = rows.next().db()? {
                if scanned == SCAN_CEILING {
                    page.truncated = true;
                    break;
                }
                scanned += 1;
                let space: String = row.get(1).db()?;
                let name: String = row.get(2).db()?;
                let space = SpacePath::parse(&space).map_err(|_| corrupt("document space"))?;
                let reference = DocumentReference::new(wiki.clone(), space, name)
                    .map_err(|_| corrupt("document name"))?;
                if !authorize(&reference) {
                    continue;
                }
                page.total += 1;
                if page.total > offset && page.hits.len() < limit {
                    let id: i64 = row.get(0).db()?;
                    page.hits.push(ObjectHit {
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
            }
            Ok(page)
        })
    }
}

fn object_touch(write: &ObjectWrite) -> Touch<'_> {
    Touch {
        reference: &write.reference,
        author: &write.author,
        comment: &write.comment,
        major: write.major,
        expected: write.expected,
        title: write.title.as_deref(),
        create: true,
        hidden_on_create: false,
    }
}

/// Parses a class name in `wiki`: a prefix naming another wiki is refused (classes are
/// wiki-local), and `Space` alone means `Space.WebHome` like any reference.
pub(crate) fn class_reference(class: &str, wiki: &WikiId) -> Result<DocumentReference> {
    let relative = RelativeReference::parse(class)?;
    if relative.wiki.as_ref().is_some_and(|prefix| prefix != wiki) {
        return Err(InvalidInput::Name {
            what: "class",
            reason: format!(
                "a class used in wiki {wiki} must be a class of that wiki; drop the prefix"
            ),
        }
        .into());
    }
    Ok(relative.in_wiki(wiki))
}

fn refuse_reserved(class: &str) -> Result<()> {
    if class == MCP_CONFIG_CLASS {
        return Err(InvalidInput::ReservedClass {
            class: class.to_owned(),
        }
        .into());
    }
    Ok(())
}

fn validate_field_change(change: &FieldChange) -> Result<()> {
    let pretty_name = match change {
        FieldChange::Add {
            name, pretty_name, ..
        } => {
            validate_field_name(name)?;
            pretty_name.as_deref()
        }
        FieldChange::Modify { pretty_name, .. } => pretty_name.as_deref(),
        FieldChange::Remove { .. } => None,
    };
    if let Some(pretty) = pretty_name
        && (pretty.chars().count() > MAX_PRETTY_NAME || pretty.chars().any(char::is_control))
    {
        return Err(InvalidInput::Name {
            what: "field label",
            reason: "at most 255 characters, without control characters".to_owned(),
        }
        .into());
    }
    Ok(())
}

/// The class defined by `class_document`, disabled fields included; `None` if the document
/// defines no field.
pub(crate) fn load_class(
    conn: &Connection,
    class_document: &DocumentReference,
) -> Result<Option<ClassDefinition>> {
    let Some(document_id) = crate::sqlite::documents::default_row_id(conn, class_document)? else {
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
            let attributes: BTreeMap<String, String> =
                serde_json::from_str(&attributes).map_err(|_| corrupt("class field attributes"))?;
            let field_type = FieldType::from_parts(&type_name, &attributes)
                .map_err(|_| corrupt("class field type"))?;
            Ok(FieldDefinition {
                name,
                pretty_name,
                field_type,
                disabled,
            })
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
        let version = touch
            .untouched(tx)?
            .ok_or_else(|| corrupt("class without its document row"))?;
        return Ok(SaveOutcome::Unchanged { version });
    };
    let touched = touch.apply(tx, locale)?;
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
            .execute(params![touched.id, name, field_type, pretty_name, attributes])
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
            .execute(params![touched.id, name, attributes, pretty_name.is_some(), pretty_name.flatten()])
            .db()?;
        }
        PlannedChange::Disable { name } => {
            tx.prepare_cached(
                "UPDATE class_fields SET disabled = 1 WHERE document_id = ?1 AND name = ?2",
            )
            .db()?
            .execute(params![touched.id, name])
            .db()?;
        }
    }
    Ok(touched.outcome())
}

/// A field change checked against the current class, ready to write.
enum PlannedChange<'c> {
    /// Insert the field, or re-enable a removed one under its new type.
    Upsert {
        name: &'c str,
        field_type: &'static str,
        pretty_name: Option<&'c str>,
        attributes: String,
    },
    /// New attributes (merged and re-validated) and, if `Some`, a new label (`Some(None)` clears it).
    Modify {
        name: &'c str,
        pretty_name: Option<Option<&'c str>>,
        attributes: String,
    },
    /// Hide the field and its values.
    Disable { name: &'c str },
}

/// The change to write, or `None` when a modification leaves the field exactly as it is (the
/// merged attributes rebuild the same type, and the label, if given, is the current one).
fn plan_field_change<'c>(
    class: Option<&ClassDefinition>,
    class_document: &DocumentReference,
    change: &'c FieldChange,
) -> Result<Option<PlannedChange<'c>>> {
    let enabled = |name: &str| class.and_then(|c| c.field(name));
    let unknown = |name: &str| -> StoreError {
        match class {
            Some(class) => InvalidInput::UnknownField {
                class: class.name.clone(),
                field: name.to_owned(),
                known: class.enabled_names(),
            }
            .into(),
            None => StoreError::not_found(Entity::Class, class_document.local()),
        }
    };
    match change {
        FieldChange::Add { name, .. } if enabled(name).is_some() => {
            Err(StoreError::AlreadyExists {
                entity: Entity::Field,
                key: name.clone(),
            })
        }
        FieldChange::Add {
            name,
            field_type,
            pretty_name,
        } => Ok(Some(PlannedChange::Upsert {
            name,
            field_type: field_type.name(),
            pretty_name: pretty_name.as_deref(),
            attributes: attributes_json(field_type)?,
        })),
        FieldChange::Modify {
            name,
            pretty_name,
            attributes,
        } => {
            let field = enabled(name).ok_or_else(|| unknown(name))?;
            let mut merged = field.field_type.attributes();
            merged.extend(attributes.iter().map(|(k, v)| (k.clone(), v.clone())));
            let field_type = FieldType::from_parts(field.field_type.name(), &merged)?;
            let pretty_name = pretty_name.as_deref().map(|p| (!p.is_empty()).then_some(p));
            let same_label = pretty_name.is_none_or(|label| label == field.pretty_name.as_deref());
            if field_type == field.field_type && same_label {
                return Ok(None);
            }
            Ok(Some(PlannedChange::Modify {
                name,
                pretty_name,
                attributes: attributes_json(&field_type)?,
            }))
        }
        FieldChange::Remove { name } if enabled(name).is_none() => Err(unknown(name)),
        FieldChange::Remove { name } => Ok(Some(PlannedChange::Disable { name })),
    }
}

fn attributes_json(field_type: &FieldType) -> Result<String> {
    serde_json::to_string(&field_type.attributes()).map_err(StoreError::backend)
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
    let class = load_class(tx, class_document)?
        .ok_or_else(|| StoreError::not_found(Entity::Class, class_document.local()))?;
    let coerced = values
        .iter()
        .map(|(name, raw)| {
            Ok((
                name.as_str(),
                coerce_value(class.require_field(name)?, raw)?,
            ))
        })
        .collect::<Result<Vec<(&str, StoredValue)>>>()?;
    let existing = match number {
        Some(number) => {
            let document_id = crate::sqlite::documents::default_row_id(tx, touch.reference)?
                .ok_or_else(|| {
                    StoreError::not_found(
                        Entity::Object,
                        format!("{} object {number} on {}", class.name, touch.reference),
                    )
                })?;
            Some((
                require_object(tx, document_id, &class.name, number, touch.reference)?,
                number,
            ))
        }
        None => None,
    };
    if let Some((object_id, number)) = existing
        && holds_values(tx, object_id, &coerced)?
        && let Some(version) = touch.untouched(tx)?
    {
        return Ok(ObjectWriteOutcome {
            number,
            created_object: false,
            document: SaveOutcome::Unchanged { version },
        });
    }
    let touched = touch.apply(tx, locale)?;
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
                .query_row(params![touched.id, class.name], |row| Ok((row.get(0)?, row.get(1)?)))
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
    for (field, value) in &coerced {
        upsert
            .execute(params![object_id, field, sql_value(value)])
            .db()?;
    }
    Ok(ObjectWriteOutcome {
        number,
        created_object: existing.is_none(),
        document: touched.outcome(),
    })
}

/// Whether the object already stores each of `values` exactly. Values are compared as stored,
/// after coercion, so another spelling of a stored value (`" 3 "`, `"a, b"`, a date-only field
/// given a time) matches. A Password value never does: it is sealed with a fresh salt, and a
/// "nothing changed" answer would otherwise confirm the secret to whoever guessed it.
fn holds_values(conn: &Connection, object_id: i64, values: &[(&str, StoredValue)]) -> Result<bool> {
    let mut stored = conn
        .prepare_cached("SELECT value FROM object_values WHERE object_id = ?1 AND field = ?2")
        .db()?;
    for (field, value) in values {
        let current: Option<Value> = stored
            .query_row(params![object_id, field], |row| row.get(0))
            .optional()
            .db()?;
        if current != Some(sql_value(value)) {
            return Ok(false);
        }
    }
    Ok(true)
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
    .ok_or_else(|| {
        StoreError::not_found(
            Entity::Object,
            format!("{class} object {number} on {reference}"),
        )
    })
}

/// The values of enabled fields of `class`; none when the class no longer exists (so a removed
/// class can never expose a sealed Password value).
pub(crate) fn read_values(
    conn: &Connection,
    object_id: i64,
    class: Option<&ClassDefinition>,
) -> Result<BTreeMap<String, FieldValue>> {
    let Some(class) = class else {
        return Ok(BTreeMap::new());
    };
    let mut values = BTreeMap::new();
    let rows = conn
        .prepare_cached("SELECT field, value FROM object_values WHERE object_id = ?1")
        .db()?
        .query_map([object_id], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, Value>(1)?))
        })
        .db()?
        .collect::<rusqlite::Result<Vec<_>>>()
        .db()?;
    for (name, value) in rows {
        let Some(field) = class.field(&name) else {
            continue;
        };
        let stored = match value {
            Value::Text(text) => StoredValue::Text(text),
            Value::Integer(n) => StoredValue::Integer(n),
            Value::Real(x) => StoredValue::Real(x),
            Value::Null | Value::Blob(_) => return Err(corrupt("object value")),
        };
        values.insert(name, decode_value(&field.field_type, stored));
    }
    Ok(values)
}

fn object_number(stored: i64) -> Result<u32> {
    u32::try_from(stored).map_err(|_| corrupt("object number"))
}

/// Class definitions looked up once per listing.
#[derive(Default)]
struct ClassCache {
    loaded: HashMap<String, Option<ClassDefinition>>,
}

impl ClassCache {
    fn get(
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
