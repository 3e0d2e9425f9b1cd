//! Farm-wide leases over any backend: each call one statement in a write that changes nothing
//! (no event, the change sequence stays put), checked by [`crate::plan::lease`] first.

use std::time::Duration;

use crate::Result;
use crate::api::LeaseStore;
use crate::backend::Backend;
use crate::flow::Transaction;
use crate::plan::lease::{validate_ids, validate_request};

/// What a lease call writes: one statement each, deciding on the lease row's committed state.
pub(crate) trait LeaseRows: Transaction {
    /// Takes the lease `name` for `holder` until `ttl_ms` from now when it is free, expired or
    /// `holder`'s already; whether it did.
    fn take_lease(&mut self, name: &str, holder: &str, ttl_ms: i64) -> Result<bool>;

    /// Deletes the lease `name` if `holder` holds it; whether it did.
    fn release_lease(&mut self, name: &str, holder: &str) -> Result<bool>;
}

impl<B: Backend> LeaseStore for B {
    fn try_lease(&self, name: &str, holder: &str, ttl: Duration) -> Result<bool> {
        let ttl_ms = validate_request(name, holder, ttl)?;
        self.write(|tx| {
            tx.nothing_changed();
            tx.take_lease(name, holder, ttl_ms)
        })
    }

    fn release_lease(&self, name: &str, holder: &str) -> Result<bool> {
        validate_ids(name, holder)?;
        self.write(|tx| {
            tx.nothing_changed();
            LeaseRows::release_lease(tx, name, holder)
        })
    }
}
