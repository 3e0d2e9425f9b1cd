//! The read behind recording a revision's objects and attachments ([`crate::structure`]) in
//! the write that saved it ([`crate::flow::Transaction::record_structures`]).

use crate::Result;
use crate::flow::structure::StructureRows;
use crate::postgres::convert::RowExt;
use crate::postgres::object_query::stored_value;
use crate::postgres::pool::Conn;
use crate::stored::object_number;
use crate::structure::{StoredObject, push_row};

impl StructureRows for Conn {
    fn objects_with_values(&mut self, document_id: i64) -> Result<Vec<StoredObject>> {
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
}
