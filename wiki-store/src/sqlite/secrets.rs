//! The statements behind [`crate::SecretStore`].

use rusqlite::params;

use crate::Result;
use crate::flow::secrets::SecretRows;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::write::WriteTx;

impl SecretRows for WriteTx<'_> {
    fn claim_secret(&mut self, name: &str, proposed: &[u8], created_ms: i64) -> Result<Vec<u8>> {
        self.prepare_cached(
            "INSERT INTO farm_secrets (name, value, created_ms) VALUES (?1, ?2, ?3) \
             ON CONFLICT (name) DO NOTHING",
        )
        .db()?
        .execute(params![name, proposed, created_ms])
        .db()?;
        self.prepare_cached("SELECT value FROM farm_secrets WHERE name = ?1")
            .db()?
            .query_row([name], |row| row.get(0))
            .db()
    }

    fn delete_secrets(&mut self, start: &str, end: &str, created_before_ms: i64) -> Result<u64> {
        let deleted = self
            .prepare_cached(
                "DELETE FROM farm_secrets WHERE name >= ?1 AND name < ?2 AND created_ms < ?3",
            )
            .db()?
            .execute(params![start, end, created_before_ms])
            .db()?;
        Ok(deleted as u64)
    }
}
