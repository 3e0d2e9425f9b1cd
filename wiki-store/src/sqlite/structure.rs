//! The read behind recording a revision's objects and attachments ([`crate::structure`]) in
//! the write that saved it ([`crate::flow::Transaction::record_structures`]).

use rusqlite::Connection;
use rusqlite::types::Value;

use crate::Result;
use crate::flow::structure::StructureRows;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::objects::from_sql_value;
use crate::stored::object_number;
use crate::structure::{StoredObject, push_row};

impl StructureRows for &Connection {
    fn objects_with_values(&mut self, document_id: i64) -> Result<Vec<StoredObject>> {
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
}
