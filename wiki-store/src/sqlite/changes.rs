//! The change sequence and in-process change events.
//!
//! Every committed write transaction advances the persistent sequence (see
//! [`crate::sqlite::write::WriteTx`]), so a server in another process notices an admin command's
//! change on its next poll of [`crate::ChangeFeed::change_seq`]. Events for this process's writes
//! go to listeners ([`crate::listeners::Listeners`]) after the commit.

use rusqlite::Connection;

use crate::Result;
use crate::flow::changes::ChangeReads;
use crate::sqlite::convert::DbResultExt;

/// Advances the change sequence inside the caller's write transaction and returns the new value.
/// [`crate::sqlite::write::WriteTx`] calls it on commit; call it directly only outside `write`.
pub(crate) fn bump_change_seq(conn: &Connection) -> Result<u64> {
    let value: i64 = conn
        .prepare_cached("UPDATE change_seq SET value = value + 1 WHERE id = 1 RETURNING value")
        .db()?
        .query_row([], |row| row.get(0))
        .db()?;
    Ok(u64::try_from(value).unwrap_or_default())
}

impl ChangeReads for &Connection {
    fn change_seq(&mut self) -> Result<u64> {
        let value: i64 = self
            .prepare_cached("SELECT value FROM change_seq WHERE id = 1")
            .db()?
            .query_row([], |row| row.get(0))
            .db()?;
        Ok(u64::try_from(value).unwrap_or_default())
    }
}
