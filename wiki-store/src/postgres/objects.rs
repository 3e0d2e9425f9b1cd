//! The PostgreSQL implementation of [`crate::ObjectStore`].

use std::collections::{BTreeMap, HashMap};

use crate::Result;
use crate::api::ObjectStore;
use crate::model::class::ClassDefinition;
use crate::model::document::SaveOutcome;
use crate::model::locale::Locale;
use crate::model::object::{
    ClassChange, ClassUsage, FieldChange, FieldValue, ObjectDelete, ObjectHit, ObjectPage,
    ObjectRecord, ObjectWrite, ObjectWriteOutcome,
};
use crate::model::wiki::WikiId;
use crate::objects::coerce::StoredValue;
use crate::objects::query::{ObjectQuery, SCAN_CEILING, check_query};
use crate::plan::class::{
    PlannedChange, class_reference, plan_field_change, validate_class_change,
};
use crate::plan::document::all_unchanged;
use crate::plan::object::{
    NewValue, coerce_values, holds_values, object_touch, unknown_class, unknown_object,
    validate_object_delete, validate_object_write, visible_values,
};
use crate::plan::owner::Touch;
use crate::postgres::PostgresStore;
use crate::postgres::convert::{RowExt, unsigned};
use crate::postgres::documents::{key, version};
use crate::postgres::object_query::{compile, stored_value, value_columns};
use crate::postgres::owner::{self, lock_owner, require_document, require_locked};
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::reference::DocumentReference;
use crate::scan::{AuthorizedScan, Offered};
use crate::stored::{self, corrupt, object_number, to_i64};

impl ObjectStore for PostgresStore {
    fn class(&self, class_document: &DocumentReference) -> Result<Option<ClassDefinition>> {
        self.read(|conn| load_class(conn, class_document, false))
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
            conn.query(
                "SELECT o.class, count(*) FROM objects o JOIN documents d ON d.id = o.document_id \
                 WHERE d.wiki = $1 GROUP BY o.class ORDER BY o.class LIMIT $2",
                &[&wiki.as_str(), &to_i64(SCAN_CEILING)],
            )?
            .iter()
            .map(|row| {
                Ok(ClassUsage {
                    class: row.col(0)?,
                    objects: unsigned(row.col::<i64>(1)?, "object count")?,
                })
            })
            .collect()
        })
    }

    fn objects(&self, reference: &DocumentReference) -> Result<Vec<ObjectRecord>> {
        self.snapshot(|conn| {
            let document_id = require_document(conn, reference)?;
            let rows = conn.query(
                "SELECT o.id, o.class, o.number, v.field, v.text_value, v.int_value, v.real_value \
                 FROM objects o LEFT JOIN object_values v ON v.object_id = o.id \
                 WHERE o.document_id = $1 ORDER BY o.class, o.number",
                &[&document_id],
            )?;
            // One entry per object, in order, with its stored values.
            let mut objects: Vec<StoredObject> = Vec::new();
            for row in &rows {
                let id: i64 = row.col(0)?;
                if objects.last().is_none_or(|(last, ..)| *last != id) {
                    objects.push((id, row.col(1)?, object_number(row.col(2)?)?, Vec::new()));
                }
                if let (Some(field), Some((.., values))) =
                    (row.col::<Option<String>>(3)?, objects.last_mut())
                {
                    values.push((field, stored_value(row.col(4)?, row.col(5)?, row.col(6)?)?));
                }
            }
            let mut classes = ClassCache::default();
            objects
                .into_iter()
                .map(|(_, class, number, values)| {
                    let definition = classes.get(conn, reference.wiki(), &class)?;
                    Ok(ObjectRecord {
                        number,
                        values: visible_values(definition, values),
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
            let document_id = require_locked(tx, &delete.reference)?;
            let object_id = require_object(
                tx,
                document_id,
                &class.local(),
                delete.number,
                &delete.reference,
            )?;
            let (_, touched) = owner::touch(tx, &touch, &locale)?;
            tx.execute("DELETE FROM objects WHERE id = $1", &[&object_id])?;
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
        self.snapshot(|conn| {
            let class = load_class(conn, &class_document, false)?
                .ok_or_else(|| unknown_class(&class_document))?;
            let checked = check_query(
                &class,
                &ObjectQuery {
                    class: class.name.clone(),
                    ..query.clone()
                },
            )?;
            // Denied candidates do not count towards the ceiling: batches are read (in the one
            // snapshot) until SCAN_CEILING authorized objects are counted, the candidates run
            // out, or the examination budget ends.
            let batch = SCAN_CEILING + 1;
            let compiled = compile(wiki, &checked, batch);
            let mut scan = AuthorizedScan::new(offset, limit, SCAN_CEILING);
            let mut page = Vec::new();
            let mut read = 0;
            loop {
                let from = to_i64(read);
                let mut params = compiled.binds.params();
                params.push(&from);
                let rows = conn.query(&compiled.sql, &params)?;
                read += rows.len();
                for row in &rows {
                    let space = stored::space(row.col(1)?)?;
                    let reference = stored::page(wiki, &space, row.col(2)?)?;
                    match scan.offer(|| authorize(&reference)) {
                        Offered::Stop => break,
                        Offered::Passed => continue,
                        Offered::OnPage => {}
                    }
                    let id: i64 = row.col(0)?;
                    page.push((id, reference, version(row, 3)?, object_number(row.col(5)?)?));
                }
                if scan.stopped() || rows.len() < batch {
                    break;
                }
            }
            let ids: Vec<i64> = page.iter().map(|(id, ..)| *id).collect();
            let mut values = values_of(conn, &ids)?;
            let hits = page
                .into_iter()
                .map(|(id, reference, version, number)| ObjectHit {
                    version,
                    object: ObjectRecord {
                        class: class.name.clone(),
                        number,
                        values: visible_values(
                            Some(&class),
                            values.remove(&id).unwrap_or_default(),
                        ),
                    },
                    reference,
                })
                .collect();
            Ok(ObjectPage {
                hits,
                total: scan.total(),
                truncated: scan.cut(),
            })
        })
    }
}

/// The class defined by `class_document`, disabled fields included; `None` if the document
/// defines no field. With `share`, the class document's row is locked `FOR SHARE` for the rest
/// of the transaction, so the class cannot change under a write that coerces values by it.
pub(crate) fn load_class(
    conn: &mut Conn,
    class_document: &DocumentReference,
    share: bool,
) -> Result<Option<ClassDefinition>> {
    let (wiki, space, name) = key(class_document);
    let lock = if share { " FOR SHARE" } else { "" };
    let Some(row) = conn.query_opt(
        &format!(
            "SELECT id FROM documents WHERE wiki = $1 AND space = $2 AND name = $3 AND locale = ''{lock}"
        ),
        &[&wiki, &space, &name],
    )?
    else {
        return Ok(None);
    };
    let document_id: i64 = row.col(0)?;
    let fields = conn
        .query(
            "SELECT name, field_type, pretty_name, attributes, disabled FROM class_fields \
             WHERE document_id = $1 ORDER BY position",
            &[&document_id],
        )?
        .iter()
        .map(|row| {
            stored::field_definition(
                row.col(0)?,
                row.col(1)?,
                row.col(2)?,
                row.col(3)?,
                row.col(4)?,
            )
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

/// Adds or overwrites a class field (the next position when new; re-enabled).
pub(crate) fn upsert_field(
    conn: &mut Conn,
    document_id: i64,
    name: &str,
    field_type: &str,
    pretty_name: Option<&str>,
    attributes: &str,
) -> Result<()> {
    conn.execute(
        "INSERT INTO class_fields (document_id, name, position, field_type, pretty_name, attributes, disabled) \
         VALUES ($1, $2, (SELECT coalesce(max(position), -1) + 1 FROM class_fields WHERE document_id = $1), \
         $3, $4, $5, false) \
         ON CONFLICT (document_id, name) DO UPDATE SET field_type = excluded.field_type, \
         pretty_name = excluded.pretty_name, attributes = excluded.attributes, disabled = false",
        &[&document_id, &name, &field_type, &pretty_name, &attributes],
    )?;
    Ok(())
}

/// Applies a field change: the class document is locked, the change checked against the class
/// as it is then, the document saved, then the field row changes. A modification that leaves
/// the field as it is writes nothing and returns [`SaveOutcome::Unchanged`] (after the
/// compare-and-set check).
pub(crate) fn change_class_in(
    tx: &mut WriteTx<'_>,
    touch: &Touch<'_>,
    change: &FieldChange,
    locale: &Locale,
) -> Result<SaveOutcome> {
    lock_owner(tx, touch.reference)?;
    let class = load_class(tx, touch.reference, false)?;
    let Some(planned) = plan_field_change(class.as_ref(), touch.reference, change)? else {
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
        } => upsert_field(tx, document_id, name, field_type, pretty_name, &attributes)?,
        PlannedChange::Modify {
            name,
            pretty_name,
            attributes,
        } => {
            tx.execute(
                "UPDATE class_fields SET attributes = $3, pretty_name = CASE WHEN $4 THEN $5 ELSE pretty_name END \
                 WHERE document_id = $1 AND name = $2",
                &[&document_id, &name, &attributes, &pretty_name.is_some(), &pretty_name.flatten()],
            )?;
        }
        PlannedChange::Disable { name } => {
            tx.execute(
                "UPDATE class_fields SET disabled = true WHERE document_id = $1 AND name = $2",
                &[&document_id, &name],
            )?;
        }
    }
    Ok(touched.outcome())
}

/// Creates or updates one object: the owning document is locked, the class (held `FOR SHARE`)
/// and every value are checked before anything is written, then the document is saved, then
/// the object and its values. An update whose values (and title) are already stored writes
/// nothing: the outcome's document is then [`SaveOutcome::Unchanged`], and the caller decides
/// whether the whole transaction was a no-op.
pub(crate) fn write_object_in(
    tx: &mut WriteTx<'_>,
    touch: &Touch<'_>,
    class_document: &DocumentReference,
    number: Option<u32>,
    values: &BTreeMap<String, String>,
    locale: &Locale,
) -> Result<ObjectWriteOutcome> {
    let document_id = lock_owner(tx, touch.reference)?;
    let class =
        load_class(tx, class_document, true)?.ok_or_else(|| unknown_class(class_document))?;
    let coerced = coerce_values(&class, values, number.is_none())?;
    let existing = match number {
        Some(number) => {
            let document_id =
                document_id.ok_or_else(|| unknown_object(&class.name, number, touch.reference))?;
            Some((
                require_object(tx, document_id, &class.name, number, touch.reference)?,
                number,
            ))
        }
        None => None,
    };
    if let Some((object_id, number)) = existing {
        let stored = values_of(tx, &[object_id])?
            .remove(&object_id)
            .unwrap_or_default();
        let stored: HashMap<String, StoredValue> = stored.into_iter().collect();
        if holds_values(&coerced, |field| Ok(stored.get(field).cloned()))?
            && let Some(version) = owner::untouched(tx, touch)?
        {
            return Ok(ObjectWriteOutcome {
                number,
                created_object: false,
                document: SaveOutcome::Unchanged { version },
            });
        }
    }
    let (document_id, touched) = owner::touch(tx, touch, locale)?;
    let (object_id, number) = match existing {
        Some(found) => found,
        None => {
            let row = tx.query_one(
                "INSERT INTO objects (document_id, class, number) VALUES ($1, $2, \
                 (SELECT coalesce(max(number), -1) + 1 FROM objects WHERE document_id = $1 AND class = $2)) \
                 RETURNING id, number",
                &[&document_id, &class.name],
            )?;
            (row.col::<i64>(0)?, object_number(row.col(1)?)?)
        }
    };
    write_values(tx, object_id, &coerced)?;
    Ok(ObjectWriteOutcome {
        number,
        created_object: existing.is_none(),
        document: touched.outcome(),
    })
}

/// Sets the given fields of an object and clears those whose new value is `None` (others keep
/// their values), in one statement each.
fn write_values(conn: &mut Conn, object_id: i64, new_values: &[NewValue<'_>]) -> Result<()> {
    let cleared: Vec<&str> = new_values
        .iter()
        .filter(|(_, value)| value.is_none())
        .map(|(field, _)| *field)
        .collect();
    if !cleared.is_empty() {
        conn.execute(
            "DELETE FROM object_values WHERE object_id = $1 AND field = ANY($2)",
            &[&object_id, &cleared],
        )?;
    }
    let values: Vec<(&str, &StoredValue)> = new_values
        .iter()
        .filter_map(|(field, value)| value.as_ref().map(|value| (*field, value)))
        .collect();
    if values.is_empty() {
        return Ok(());
    }
    let mut fields = Vec::with_capacity(values.len());
    let mut texts = Vec::with_capacity(values.len());
    let mut ints = Vec::with_capacity(values.len());
    let mut reals = Vec::with_capacity(values.len());
    let mut numbers = Vec::with_capacity(values.len());
    for (field, value) in values {
        let columns = value_columns(value);
        fields.push(field);
        texts.push(columns.text);
        ints.push(columns.int);
        reals.push(columns.real);
        numbers.push(columns.number);
    }
    conn.execute(
        "INSERT INTO object_values (object_id, field, text_value, int_value, real_value, number) \
         SELECT $1, v.field, v.text_value, v.int_value, v.real_value, v.number::numeric \
         FROM unnest($2::text[], $3::text[], $4::bigint[], $5::float8[], $6::text[]) \
              AS v(field, text_value, int_value, real_value, number) \
         ON CONFLICT (object_id, field) DO UPDATE SET text_value = excluded.text_value, \
         int_value = excluded.int_value, real_value = excluded.real_value, number = excluded.number",
        &[&object_id, &fields, &texts, &ints, &reals, &numbers],
    )?;
    Ok(())
}

/// The stored values of objects `ids`, by object.
fn values_of(conn: &mut Conn, ids: &[i64]) -> Result<HashMap<i64, Vec<(String, StoredValue)>>> {
    let mut out: HashMap<i64, Vec<(String, StoredValue)>> = HashMap::new();
    if ids.is_empty() {
        return Ok(out);
    }
    let rows = conn.query(
        "SELECT object_id, field, text_value, int_value, real_value FROM object_values \
         WHERE object_id = ANY($1)",
        &[&ids.to_vec()],
    )?;
    for row in &rows {
        out.entry(row.col(0)?).or_default().push((
            row.col(1)?,
            stored_value(row.col(2)?, row.col(3)?, row.col(4)?)?,
        ));
    }
    Ok(out)
}

/// The visible values of one object by `class` (none when the class no longer exists).
pub(crate) fn read_values(
    conn: &mut Conn,
    object_id: i64,
    class: Option<&ClassDefinition>,
) -> Result<BTreeMap<String, FieldValue>> {
    if class.is_none() {
        return Ok(BTreeMap::new());
    }
    let stored = values_of(conn, &[object_id])?
        .remove(&object_id)
        .unwrap_or_default();
    Ok(visible_values(class, stored))
}

fn require_object(
    conn: &mut Conn,
    document_id: i64,
    class: &str,
    number: u32,
    reference: &DocumentReference,
) -> Result<i64> {
    conn.query_opt(
        "SELECT id FROM objects WHERE document_id = $1 AND class = $2 AND number = $3",
        &[&document_id, &class, &i64::from(number)],
    )?
    .map(|row| row.col(0))
    .transpose()?
    .ok_or_else(|| unknown_object(class, number, reference))
}

/// An object as listed: id, class, number and stored values.
type StoredObject = (i64, String, u32, Vec<(String, StoredValue)>);

/// Class definitions looked up once per listing.
#[derive(Default)]
pub(crate) struct ClassCache {
    loaded: HashMap<String, Option<ClassDefinition>>,
}

impl ClassCache {
    pub(crate) fn get(
        &mut self,
        conn: &mut Conn,
        wiki: &WikiId,
        class: &str,
    ) -> Result<Option<&ClassDefinition>> {
        if !self.loaded.contains_key(class) {
            let definition = match class_reference(class, wiki) {
                Ok(reference) => load_class(conn, &reference, false)?,
                Err(_) => None,
            };
            self.loaded.insert(class.to_owned(), definition);
        }
        Ok(self.loaded.get(class).and_then(Option::as_ref))
    }
}
