//! The change sequence and in-process change events.
//!
//! Every committed write transaction advances the persistent sequence (see
//! [`crate::sqlite::write::WriteTx`]), so a server in another process notices an admin command's
//! change on its next poll of [`crate::ChangeFeed::change_seq`]. Events for this process's writes
//! go to listeners after the commit.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;
use rusqlite::Connection;

use crate::Result;
use crate::api::{ChangeFeed, ChangeListener, Subscription};
use crate::model::change::ChangeEvent;
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

/// The registered listeners.
#[derive(Default)]
pub(crate) struct Listeners {
    next_id: AtomicU64,
    list: Mutex<Vec<(u64, ChangeListener)>>,
}

impl Listeners {
    pub(crate) fn subscribe(self: &Arc<Self>, listener: ChangeListener) -> Subscription {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.list.lock().push((id, listener));
        let weak = Arc::downgrade(self);
        Subscription::new(move || {
            if let Some(listeners) = weak.upgrade() {
                listeners.list.lock().retain(|(other, _)| *other != id);
            }
        })
    }

    /// Calls every listener with every event, outside the registry lock (a listener may
    /// subscribe or unsubscribe).
    pub(crate) fn publish(&self, events: &[ChangeEvent]) {
        if events.is_empty() {
            return;
        }
        let snapshot: Vec<ChangeListener> = self
            .list
            .lock()
            .iter()
            .map(|(_, l)| Arc::clone(l))
            .collect();
        for listener in snapshot {
            for event in events {
                listener(event);
            }
        }
    }
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
    /// only the WAL index in shared memory (no query, no disk I/O).
    fn commit_marker(&self) -> Result<u64> {
        self.pool().data_version()
    }

    fn subscribe(&self, listener: ChangeListener) -> Subscription {
        self.listeners().subscribe(listener)
    }
}
