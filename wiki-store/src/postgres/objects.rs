//! The statements behind [`crate::ObjectStore`] ([`crate::flow::objects`]).

use std::collections::HashMap;

use crate::Result;
use crate::flow::objects::{ObjectReads, ObjectRows, StoredHit, StoredObject};
use crate::model::class::ClassDefinition;
use crate::model::object::ClassUsage;
use crate::model::wiki::WikiId;
use crate::objects::coerce::StoredValue;
use crate::objects::query::{CheckedQuery, SCAN_CEILING};
use crate::plan::class::PlannedChange;
use crate::plan::object::NewValue;
use crate::postgres::convert::{RowExt, unsigned};
use crate::postgres::documents::version;
use crate::postgres::object_query::{compile, stored_value, value_columns};
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::reference::DocumentReference;
use crate::scan::{AuthorizedScan, Offered};
use crate::stored::reference_columns;
use crate::stored::{self, object_number, to_i64};
use crate::structure::push_row;

impl ObjectReads for Conn {
    fn load_class(
        &mut self,
        class_document: &DocumentReference,
    ) -> Result<Option<ClassDefinition>> {
        load_class(self, class_document, false)
    }

    fn stored_objects(&mut self, document_id: i64) -> Result<Vec<StoredObject>> {
        let rows = self.query(
            "SELECT o.class, o.number, v.field, v.text_value, v.int_value, v.real_value \
             FROM objects o LEFT JOIN object_values v ON v.object_id = o.id \
             WHERE o.document_id = $1 ORDER BY o.class, o.number, v.field",
            &[&document_id],
        )?;
        let mut objects: Vec<StoredObject> = Vec::new();
        for row in &rows {
            let value = match row.col::<Option<String>>(2)? {
                Some(field) => Some((field, stored_value(row.col(3)?, row.col(4)?, row.col(5)?)?)),
                None => None,
            };
            push_row(
                &mut objects,
                row.col(0)?,
                object_number(row.col(1)?)?,
                value,
            );
        }
        Ok(objects)
    }

    fn class_usage(&mut self, wiki: &WikiId) -> Result<Vec<ClassUsage>> {
        self.query(
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
    }

    fn object_values(&mut self, object_id: i64) -> Result<Vec<(String, StoredValue)>> {
        self.query(
            "SELECT field, text_value, int_value, real_value FROM object_values WHERE object_id = $1",
            &[&object_id],
        )?
        .iter()
        .map(|row| {
            Ok((
                row.col(0)?,
                stored_value(row.col(1)?, row.col(2)?, row.col(3)?)?,
            ))
        })
        .collect()
    }

    /// Batches of candidates (in the one snapshot) until the scan stops or they run out, then
    /// the paged objects' values in one statement.
    fn object_hits(
        &mut self,
        wiki: &WikiId,
        checked: &CheckedQuery,
        scan: &mut AuthorizedScan,
        authorize: &mut dyn FnMut(&DocumentReference) -> bool,
    ) -> Result<Vec<StoredHit>> {
        let batch = SCAN_CEILING + 1;
        let compiled = compile(wiki, checked, batch);
        let mut page = Vec::new();
        let mut read = 0;
        loop {
            let from = to_i64(read);
            let mut params = compiled.binds.params();
            params.push(&from);
            let rows = self.query(&compiled.sql, &params)?;
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
        let mut values = values_of(self, &ids)?;
        Ok(page
            .into_iter()
            .map(|(id, reference, version, number)| StoredHit {
                reference,
                version,
                number,
                values: values.remove(&id).unwrap_or_default(),
            })
            .collect())
    }
}

impl ObjectRows for WriteTx<'_> {
    fn hold_class(
        &mut self,
        class_document: &DocumentReference,
    ) -> Result<Option<ClassDefinition>> {
        load_class(self, class_document, true)
    }

    fn object_id(&mut self, document_id: i64, class: &str, number: u32) -> Result<Option<i64>> {
        self.query_opt(
            "SELECT id FROM objects WHERE document_id = $1 AND class = $2 AND number = $3",
            &[&document_id, &class, &i64::from(number)],
        )?
        .map(|row| row.col(0))
        .transpose()
    }

    fn insert_object(&mut self, document_id: i64, class: &str) -> Result<(i64, u32)> {
        let row = self.query_one(
            "INSERT INTO objects (document_id, class, number) VALUES ($1, $2, \
             (SELECT coalesce(max(number), -1) + 1 FROM objects WHERE document_id = $1 AND class = $2)) \
             RETURNING id, number",
            &[&document_id, &class],
        )?;
        Ok((row.col::<i64>(0)?, object_number(row.col(1)?)?))
    }

    /// One statement for the cleared fields, one for the set ones.
    fn write_values(&mut self, object_id: i64, new_values: &[NewValue<'_>]) -> Result<()> {
        let conn: &mut Conn = self;
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

    fn delete_object(&mut self, object_id: i64) -> Result<()> {
        self.execute("DELETE FROM objects WHERE id = $1", &[&object_id])?;
        Ok(())
    }

    fn change_field(&mut self, document_id: i64, change: PlannedChange<'_>) -> Result<()> {
        match change {
            PlannedChange::Upsert {
                name,
                field_type,
                pretty_name,
                attributes,
            } => upsert_field(
                self,
                document_id,
                name,
                field_type,
                pretty_name,
                &attributes,
            )?,
            PlannedChange::Modify {
                name,
                pretty_name,
                attributes,
            } => {
                self.execute(
                    "UPDATE class_fields SET attributes = $3, pretty_name = CASE WHEN $4 THEN $5 ELSE pretty_name END \
                     WHERE document_id = $1 AND name = $2",
                    &[&document_id, &name, &attributes, &pretty_name.is_some(), &pretty_name.flatten()],
                )?;
            }
            PlannedChange::Disable { name } => {
                self.execute(
                    "UPDATE class_fields SET disabled = true WHERE document_id = $1 AND name = $2",
                    &[&document_id, &name],
                )?;
            }
        }
        Ok(())
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
    let (wiki, space, name) = reference_columns(class_document);
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
    Ok(stored::class_definition(class_document, fields))
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
