//! The change sequence and in-process change events.
//!
//! Every committed write transaction advances the persistent sequence (see
//! [`crate::sqlite::write::WriteTx`]), so a server in another process notices an admin command's
//! change on its next poll of [`crate::ChangeFeed::change_seq`]. Events for this process's writes
//! go to listeners ([`crate::listeners::Listeners`]) after the commit.

use rusqlite::Connection;

use crate::Result;
use crate::api::{ChangeFeed, ChangeListener, Subscription};
use crate::sqlite::SqliteStore;
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

impl ChangeFeed for SqliteStore {
    fn change_seq(&self) -> Result<u64> {
        self.read(|conn| {
            let value: i64 = conn
                .prepare_cached("SELECT value FROM change_seq WHERE id = 1")
                .db()?
                .query_row([], |row| row.get(0))
                .db()?;
            Ok(u64::try_from(value).unwrap_or_default())
        })
    }

    /// SQLite's `PRAGMA data_version` on a dedicated connection: it moves whenever another
    /// connection commits (this process's writer, or another process), and reading it touches
    /// only the WAL index in shared memory (no query, no disk I/O), under file locks. A reading
    /// is reused for the store's marker window ([`crate::StoreConfig::commit_marker_window_ms`],
    /// by default [`crate::sqlite::MARKER_WINDOW`]) unless this store's writer committed since,
    /// so another process's commit shows at most that late.
    fn commit_marker(&self) -> Result<u64> {
        self.pool().data_version()
    }

    fn subscribe(&self, listener: ChangeListener) -> Subscription {
        self.listeners().subscribe(listener)
    }
}
