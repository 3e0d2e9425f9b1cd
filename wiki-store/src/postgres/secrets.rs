//! The statements behind [`crate::SecretStore`]: one statement inserts the proposal unless the
//! name is taken; when it was, the stored value is read, so of replicas asking at once exactly
//! one proposal is stored and every one gets it.

use crate::Result;
use crate::flow::secrets::SecretRows;
use crate::postgres::convert::RowExt;
use crate::postgres::write::WriteTx;

impl SecretRows for WriteTx<'_> {
    fn claim_secret(&mut self, name: &str, proposed: &[u8], created_ms: i64) -> Result<Vec<u8>> {
        let inserted = self.query_opt(
            "INSERT INTO farm_secrets (name, value, created_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (name) DO NOTHING RETURNING value",
            &[&name, &proposed, &created_ms],
        )?;
        match inserted {
            Some(row) => row.col(0),
            None => self
                .query_one("SELECT value FROM farm_secrets WHERE name = $1", &[&name])?
                .col(0),
        }
    }

    fn delete_secrets(&mut self, start: &str, end: &str, created_before_ms: i64) -> Result<u64> {
        // `name` is COLLATE "C": the range is in byte order.
        self.execute(
            "DELETE FROM farm_secrets WHERE name >= $1 AND name < $2 AND created_ms < $3",
            &[&start, &end, &created_before_ms],
        )
    }
}
