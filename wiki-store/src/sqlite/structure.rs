//! Recording a revision's objects and attachments ([`crate::structure`]) in the write that
//! saved it.

use rusqlite::types::Value;
use rusqlite::{Connection, params};

use crate::Result;
use crate::flow::objects::ClassCache;
use crate::model::structure::Structure;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::sqlite::attachments::current_attachments;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::objects::{from_sql_value, load_class};
use crate::stored::object_number;
use crate::structure::{StoredObject, attachment_states, encode, object_state, push_row};

/// Records on revision `version` of the default row `document_id` (in `wiki`) its objects and
/// attachments as they stand now.
pub(crate) fn record(
    conn: &Connection,
    wiki: &WikiId,
    document_id: i64,
    version: Version,
) -> Result<()> {
    let structure = encode(&current(conn, wiki, document_id)?)?;
    conn.prepare_cached(
        "UPDATE revisions SET structure = ?4 WHERE document_id = ?1 AND major = ?2 AND minor = ?3",
    )
    .db()?
    .execute(params![
        document_id,
        version.major,
        version.minor,
        structure
    ])
    .db()?;
    Ok(())
}

/// The objects and attachments of the default row `document_id` as this connection sees them.
fn current(conn: &Connection, wiki: &WikiId, document_id: i64) -> Result<Structure> {
    let rows = conn
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
    let mut classes = ClassCache::default();
    let objects = objects
        .into_iter()
        .map(|(class, number, values)| {
            let definition = classes.get(wiki, &class, |class| load_class(conn, class))?;
            Ok(object_state(class, number, definition, values))
        })
        .collect::<Result<Vec<_>>>()?;
    let attachments = attachment_states(current_attachments(conn, document_id)?);
    Ok(Structure {
        objects,
        attachments,
    })
}
