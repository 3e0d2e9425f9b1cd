//! Recording a revision's objects and attachments ([`crate::structure`]) in the write that
//! saved it.

use crate::Result;
use crate::flow::structure::{self as recorded, StructureRows};
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::postgres::convert::RowExt;
use crate::postgres::documents::version_columns;
use crate::postgres::object_query::stored_value;
use crate::postgres::pool::Conn;
use crate::stored::object_number;
use crate::structure::{StoredObject, encode, push_row};

/// Records on revision `version` of the default row `document_id` (in `wiki`) its objects and
/// attachments as they stand now.
pub(crate) fn record(
    conn: &mut Conn,
    wiki: &WikiId,
    document_id: i64,
    version: Version,
) -> Result<()> {
    let structure = encode(&recorded::current(conn, wiki, document_id)?)?;
    let (major, minor) = version_columns(version);
    conn.execute(
        "UPDATE revisions SET structure = $4 WHERE document_id = $1 AND major = $2 AND minor = $3",
        &[&document_id, &major, &minor, &structure],
    )?;
    Ok(())
}

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
