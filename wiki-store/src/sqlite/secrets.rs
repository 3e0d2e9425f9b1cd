//! The SQLite implementation of [`crate::SecretStore`].

use rusqlite::params;

use crate::Result;
use crate::api::SecretStore;
use crate::plan::secret::{family_range, validate_secret};
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::DbResultExt;
use crate::stored::now_ms;

impl SecretStore for SqliteStore {
    fn farm_secret(&self, name: &str, proposed: &[u8]) -> Result<Vec<u8>> {
        validate_secret(name, proposed)?;
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT INTO farm_secrets (name, value, created_ms) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (name) DO NOTHING",
            )
            .db()?
            .execute(params![name, proposed, now_ms()])
            .db()?;
            tx.nothing_changed();
            tx.prepare_cached("SELECT value FROM farm_secrets WHERE name = ?1")
                .db()?
                .query_row([name], |row| row.get(0))
                .db()
        })
    }

    fn prune_farm_secrets(&self, prefix: &str, created_before_ms: i64) -> Result<u64> {
        let end = family_range(prefix)?;
        self.write(|tx| {
            tx.nothing_changed();
            let deleted = tx
                .prepare_cached(
                    "DELETE FROM farm_secrets WHERE name >= ?1 AND name < ?2 AND created_ms < ?3",
                )
                .db()?
                .execute(params![prefix, end, created_before_ms])
                .db()?;
            Ok(deleted as u64)
        })
    }
}
