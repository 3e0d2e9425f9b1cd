//! The statements behind [`crate::ObjectStore`] ([`crate::flow::objects`]).

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params};

use crate::Result;
use crate::flow::documents::DocumentReads;
use crate::flow::objects::{ObjectReads, ObjectRows, StoredHit, StoredObject};
use crate::model::class::ClassDefinition;
use crate::model::object::ClassUsage;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::objects::coerce::StoredValue;
use crate::objects::query::{CheckedQuery, SCAN_CEILING};
use crate::plan::class::PlannedChange;
use crate::plan::object::NewValue;
use crate::reference::DocumentReference;
use crate::scan::{AuthorizedScan, MAX_EXAMINED, Offered};
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::object_query::{compile, sql_value};
use crate::sqlite::write::WriteTx;
use crate::stored::{self, corrupt, object_number, to_i64};
use crate::structure::push_row;

impl ObjectReads for &Connection {
    fn load_class(
        &mut self,
        class_document: &DocumentReference,
    ) -> Result<Option<ClassDefinition>> {
        let conn: &Connection = self;
        let Some(document_id) = { conn }.default_row_id(class_document)? else {
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
        Ok(stored::class_definition(class_document, fields))
    }

    /// One statement: every object joined with its values.
    fn stored_objects(&mut self, document_id: i64) -> Result<Vec<StoredObject>> {
        let rows = self
            .prepare_cached(
                "SELECT o.class, o.number, v.field, v.value FROM objects o \
                 LEFT JOIN object_values v ON v.object_id = o.id \
                 WHERE o.document_id = ?1 ORDER BY o.class, o.number, v.field",
            )
            .db()?
            .query_map([document_id], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, i64>(1)?,
                    row.get::<_, Option<String>>(2)?,
                    row.get::<_, Option<Value>>(3)?,
                ))
            })
            .db()?
            .collect::<rusqlite::Result<Vec<_>>>()
            .db()?;
        let mut objects: Vec<StoredObject> = Vec::new();
        for (class, number, field, value) in rows {
            let value = match (field, value) {
                (Some(field), Some(value)) => Some((field, from_sql_value(value)?)),
                _ => None,
            };
            push_row(&mut objects, class, object_number(number)?, value);
        }
        Ok(objects)
    }

    fn class_usage(&mut self, wiki: &WikiId) -> Result<Vec<ClassUsage>> {
        self.prepare_cached(
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
    }

    fn object_values(&mut self, object_id: i64) -> Result<Vec<(String, StoredValue)>> {
        let conn: &Connection = self;
        conn.prepare_cached("SELECT field, value FROM object_values WHERE object_id = ?1")
            .db()?
            .query_map([object_id], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, Value>(1)?))
            })
            .db()?
            .map(|raw| {
                let (name, value) = raw.db()?;
                Ok((name, from_sql_value(value)?))
            })
            .collect()
    }

    /// One statement stepped row by row (the examination budget bounds it), each paged
    /// object's values read as it is paged.
    fn object_hits(
        &mut self,
        wiki: &WikiId,
        checked: &CheckedQuery,
        scan: &mut AuthorizedScan,
        authorize: &mut dyn FnMut(&DocumentReference) -> bool,
    ) -> Result<Vec<StoredHit>> {
        let conn: &Connection = self;
        let compiled = compile(wiki, checked, MAX_EXAMINED + 1);
        let mut statement = conn.prepare(&compiled.sql).db()?;
        let mut rows = statement
            .query(rusqlite::params_from_iter(compiled.params.iter()))
            .db()?;
        let mut hits = Vec::new();
        while let Some(row) = rows.next().db()? {
            let space = stored::space(&row.get::<_, String>(1).db()?)?;
            let reference = stored::page(wiki, &space, row.get(2).db()?)?;
            match scan.offer(|| authorize(&reference)) {
                Offered::Stop => break,
                Offered::Passed => continue,
                Offered::OnPage => {}
            }
            let id: i64 = row.get(0).db()?;
            hits.push(StoredHit {
                reference,
                version: Version {
                    major: row.get(3).db()?,
                    minor: row.get(4).db()?,
                },
                number: object_number(row.get(5).db()?)?,
                values: { conn }.object_values(id)?,
            });
        }
        Ok(hits)
    }
}

/// The IMMEDIATE transaction already excludes every other writer: the class is read.
impl ObjectRows for WriteTx<'_> {
    fn object_id(&mut self, document_id: i64, class: &str, number: u32) -> Result<Option<i64>> {
        self.prepare_cached(
            "SELECT id FROM objects WHERE document_id = ?1 AND class = ?2 AND number = ?3",
        )
        .db()?
        .query_row(params![document_id, class, number], |row| row.get(0))
        .optional()
        .db()
    }

    fn insert_object(&mut self, document_id: i64, class: &str) -> Result<(i64, u32)> {
        let (id, number): (i64, i64) = self
            .prepare_cached(
                "INSERT INTO objects (document_id, class, number) VALUES (?1, ?2, \
                 (SELECT coalesce(max(number), -1) + 1 FROM objects WHERE document_id = ?1 AND class = ?2)) \
                 RETURNING id, number",
            )
            .db()?
            .query_row(params![document_id, class], |row| Ok((row.get(0)?, row.get(1)?)))
            .db()?;
        Ok((id, object_number(number)?))
    }

    fn write_values(&mut self, object_id: i64, values: &[NewValue<'_>]) -> Result<()> {
        let mut upsert = self
            .prepare_cached(
                "INSERT INTO object_values (object_id, field, value) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (object_id, field) DO UPDATE SET value = excluded.value",
            )
            .db()?;
        let mut clear = self
            .prepare_cached("DELETE FROM object_values WHERE object_id = ?1 AND field = ?2")
            .db()?;
        for (field, value) in values {
            match value {
                Some(value) => upsert.execute(params![object_id, field, sql_value(value)]),
                None => clear.execute(params![object_id, field]),
            }
            .db()?;
        }
        Ok(())
    }

    fn delete_object(&mut self, object_id: i64) -> Result<()> {
        self.prepare_cached("DELETE FROM objects WHERE id = ?1")
            .db()?
            .execute([object_id])
            .db()?;
        Ok(())
    }

    fn change_field(&mut self, document_id: i64, change: PlannedChange<'_>) -> Result<()> {
        match change {
            PlannedChange::Upsert {
                name,
                field_type,
                pretty_name,
                attributes,
            } => self
                .prepare_cached(
                    "INSERT INTO class_fields (document_id, name, position, field_type, pretty_name, attributes, disabled) \
                     VALUES (?1, ?2, (SELECT coalesce(max(position), -1) + 1 FROM class_fields WHERE document_id = ?1), \
                     ?3, ?4, ?5, 0) \
                     ON CONFLICT (document_id, name) DO UPDATE SET field_type = excluded.field_type, \
                     pretty_name = excluded.pretty_name, attributes = excluded.attributes, disabled = 0",
                )
                .db()?
                .execute(params![document_id, name, field_type, pretty_name, attributes]),
            PlannedChange::Modify {
                name,
                pretty_name,
                attributes,
            } => self
                .prepare_cached(
                    "UPDATE class_fields SET attributes = ?3, pretty_name = CASE WHEN ?4 THEN ?5 ELSE pretty_name END \
                     WHERE document_id = ?1 AND name = ?2",
                )
                .db()?
                .execute(params![document_id, name, attributes, pretty_name.is_some(), pretty_name.flatten()]),
            PlannedChange::Disable { name } => self
                .prepare_cached(
                    "UPDATE class_fields SET disabled = 1 WHERE document_id = ?1 AND name = ?2",
                )
                .db()?
                .execute(params![document_id, name]),
        }
        .db()?;
        Ok(())
    }
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
