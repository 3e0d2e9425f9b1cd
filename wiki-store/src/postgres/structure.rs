//! Recording a revision's objects and attachments ([`crate::structure`]) in the write that
//! saved it.

use crate::Result;
use crate::flow::objects::ClassCache;
use crate::model::structure::Structure;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::postgres::attachments::current_attachments;
use crate::postgres::convert::RowExt;
use crate::postgres::documents::version_columns;
use crate::postgres::object_query::stored_value;
use crate::postgres::objects::load_class;
use crate::postgres::pool::Conn;
use crate::stored::object_number;
use crate::structure::{StoredObject, attachment_states, encode, object_state, push_row};

/// Records on revision `version` of the default row `document_id` (in `wiki`) its objects and
/// attachments as they stand now.
pub(crate) fn record(
    conn: &mut Conn,
    wiki: &WikiId,
    document_id: i64,
    version: Version,
) -> Result<()> {
    let structure = encode(&current(conn, wiki, document_id)?)?;
    let (major, minor) = version_columns(version);
    conn.execute(
        "UPDATE revisions SET structure = $4 WHERE document_id = $1 AND major = $2 AND minor = $3",
        &[&document_id, &major, &minor, &structure],
    )?;
    Ok(())
}

/// The objects and attachments of the default row `document_id` as this transaction sees them.
fn current(conn: &mut Conn, wiki: &WikiId, document_id: i64) -> Result<Structure> {
    let rows = conn.query(
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
    let mut classes = ClassCache::default();
    let objects = objects
        .into_iter()
        .map(|(class, number, values)| {
            let definition = classes.get(wiki, &class, |class| load_class(conn, class, false))?;
            Ok(object_state(class, number, definition, values))
        })
        .collect::<Result<Vec<_>>>()?;
    let attachments = attachment_states(current_attachments(conn, document_id)?);
    Ok(Structure {
        objects,
        attachments,
    })
}
