//! How often, and how long, work waited for a connection: what [`crate::PoolStats`] reports
//! of a pool's contention. Counted only when a wait happens, so a free pool pays nothing.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The waits of one pool since it opened.
#[derive(Debug, Default)]
pub(crate) struct Waits {
    count: AtomicU64,
    nanos: AtomicU64,
}

impl Waits {
    /// Counts one wait of `waited`.
    pub(crate) fn add(&self, waited: Duration) {
        self.count.fetch_add(1, Ordering::Relaxed);
        let nanos = u64::try_from(waited.as_nanos()).unwrap_or(u64::MAX);
        self.nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// How many waits, and their total time.
    pub(crate) fn read(&self) -> (u64, Duration) {
        (
            self.count.load(Ordering::Relaxed),
            Duration::from_nanos(self.nanos.load(Ordering::Relaxed)),
        )
    }
}
