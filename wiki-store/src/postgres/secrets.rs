//! The PostgreSQL implementation of [`crate::SecretStore`]: one statement inserts the proposal
//! unless the name is taken; when it was, the stored value is read, so of replicas asking at
//! once exactly one proposal is stored and every one gets it.

use crate::Result;
use crate::api::SecretStore;
use crate::plan::secret::{family_range, validate_secret};
use crate::postgres::PostgresStore;
use crate::postgres::convert::RowExt;
use crate::stored::now_ms;

impl SecretStore for PostgresStore {
    fn farm_secret(&self, name: &str, proposed: &[u8]) -> Result<Vec<u8>> {
        validate_secret(name, proposed)?;
        self.write(|tx| {
            tx.nothing_changed();
            let inserted = tx.query_opt(
                "INSERT INTO farm_secrets (name, value, created_ms) VALUES ($1, $2, $3) \
                 ON CONFLICT (name) DO NOTHING RETURNING value",
                &[&name, &proposed, &now_ms()],
            )?;
            match inserted {
                Some(row) => row.col(0),
                None => tx
                    .query_one("SELECT value FROM farm_secrets WHERE name = $1", &[&name])?
                    .col(0),
            }
        })
    }

    fn prune_farm_secrets(&self, prefix: &str, created_before_ms: i64) -> Result<u64> {
        let end = family_range(prefix)?;
        self.write(|tx| {
            tx.nothing_changed();
            // `name` is COLLATE "C": the range is the family's names in byte order.
            tx.execute(
                "DELETE FROM farm_secrets WHERE name >= $1 AND name < $2 AND created_ms < $3",
                &[&prefix, &end, &created_before_ms],
            )
        })
    }
}
