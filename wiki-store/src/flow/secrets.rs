//! Farm-wide secrets over any backend: checked by [`crate::plan::secret`] first, written in a
//! transaction that changes nothing (no event, the change sequence stays put).

use crate::Result;
use crate::api::SecretStore;
use crate::backend::Backend;
use crate::flow::Transaction;
use crate::plan::secret::{family_range, validate_secret};

/// What a secret call writes.
pub(crate) trait SecretRows: Transaction {
    /// Stores `proposed` under `name` unless the name is taken, then returns the value stored
    /// under it: of processes proposing at once, exactly one proposal is kept.
    fn claim_secret(&mut self, name: &str, proposed: &[u8], created_ms: i64) -> Result<Vec<u8>>;

    /// Deletes the secrets named from `start` (included) to `end` (excluded), in byte order,
    /// created before `created_before_ms`; how many.
    fn delete_secrets(&mut self, start: &str, end: &str, created_before_ms: i64) -> Result<u64>;
}

impl<B: Backend> SecretStore for B {
    fn farm_secret(&self, name: &str, proposed: &[u8]) -> Result<Vec<u8>> {
        validate_secret(name, proposed)?;
        self.write(|tx| {
            tx.nothing_changed();
            let created = tx.now_ms();
            tx.claim_secret(name, proposed, created)
        })
    }

    fn prune_farm_secrets(&self, prefix: &str, created_before_ms: i64) -> Result<u64> {
        let end = family_range(prefix)?;
        self.write(|tx| {
            tx.nothing_changed();
            tx.delete_secrets(prefix, &end, created_before_ms)
        })
    }
}
