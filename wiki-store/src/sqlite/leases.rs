//! The SQLite implementation of [`crate::LeaseStore`]: each call is one statement in a write
//! transaction, and SQLite runs one writer at a time across every process on the file, so two
//! processes asking at once take turns and the second sees the first's lease. The clock is the
//! host's: a SQLite farm's processes share one host.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{OptionalExtension, params};

use crate::Result;
use crate::api::LeaseStore;
use crate::plan::lease::{validate_ids, validate_request};
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::DbResultExt;

/// Takes a free or expired lease, or renews one's own; returns a row only when it did.
const TAKE: &str = "INSERT INTO leases (name, holder, expires_ms) VALUES (?1, ?2, ?3 + ?4) \
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_ms = excluded.expires_ms \
     WHERE leases.holder = excluded.holder OR leases.expires_ms <= ?3 \
     RETURNING holder";

impl LeaseStore for SqliteStore {
    fn try_lease(&self, name: &str, holder: &str, ttl: Duration) -> Result<bool> {
        let ttl_ms = validate_request(name, holder, ttl)?;
        let now_ms = now_ms();
        self.write(|tx| {
            tx.nothing_changed();
            let taken: Option<String> = tx
                .prepare_cached(TAKE)
                .db()?
                .query_row(params![name, holder, now_ms, ttl_ms], |row| row.get(0))
                .optional()
                .db()?;
            Ok(taken.is_some())
        })
    }

    fn release_lease(&self, name: &str, holder: &str) -> Result<bool> {
        validate_ids(name, holder)?;
        self.write(|tx| {
            tx.nothing_changed();
            let released = tx
                .prepare_cached("DELETE FROM leases WHERE name = ?1 AND holder = ?2")
                .db()?
                .execute(params![name, holder])
                .db()?;
            Ok(released > 0)
        })
    }
}

/// Milliseconds since the Unix epoch by the host's clock (0 before it, which no host is).
fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
        })
}
