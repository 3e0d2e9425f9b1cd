//! The statements behind [`crate::LeaseStore`]: each call is one statement in a write
//! transaction, and SQLite runs one writer at a time across every process on the file, so two
//! processes asking at once take turns and the second sees the first's lease. The clock is the
//! store's ([`crate::StoreConfig::clock`], the host's by default): a SQLite farm's processes
//! share one host.

use rusqlite::{OptionalExtension, params};

use crate::Result;
use crate::flow::Transaction;
use crate::flow::leases::LeaseRows;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::write::WriteTx;

impl LeaseRows for WriteTx<'_> {
    fn take_lease(&mut self, name: &str, holder: &str, ttl_ms: i64) -> Result<bool> {
        let now = self.now_ms();
        let taken: Option<String> = self
            .prepare_cached(
                "INSERT INTO leases (name, holder, expires_ms) VALUES (?1, ?2, ?3 + ?4) \
                 ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_ms = excluded.expires_ms \
                 WHERE leases.holder = excluded.holder OR leases.expires_ms <= ?3 \
                 RETURNING holder",
            )
            .db()?
            .query_row(params![name, holder, now, ttl_ms], |row| row.get(0))
            .optional()
            .db()?;
        Ok(taken.is_some())
    }

    fn release_lease(&mut self, name: &str, holder: &str) -> Result<bool> {
        let released = self
            .prepare_cached("DELETE FROM leases WHERE name = ?1 AND holder = ?2")
            .db()?
            .execute(params![name, holder])
            .db()?;
        Ok(released > 0)
    }
}
