//! Change events and the change sequence.

use std::sync::Arc;
use std::time::Duration;

use crate::Result;
use crate::clock::Clock;
use crate::model::change::ChangeEvent;

/// A subscriber's callback. It runs on the writing thread right after the commit, so it must be
/// quick (forward the event to a channel).
pub type ChangeListener = Arc<dyn Fn(&ChangeEvent) + Send + Sync>;

/// Keeps a listener registered; dropping it unsubscribes.
pub struct Subscription {
    unsubscribe: Option<Box<dyn FnOnce() + Send + Sync>>,
}

impl Subscription {
    /// A subscription that runs `unsubscribe` when dropped (for backends).
    pub fn new(unsubscribe: impl FnOnce() + Send + Sync + 'static) -> Self {
        Subscription {
            unsubscribe: Some(Box::new(unsubscribe)),
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        if let Some(unsubscribe) = self.unsubscribe.take() {
            unsubscribe();
        }
    }
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription").finish_non_exhaustive()
    }
}

/// Change notification: in-process events for this process's writes, and a persistent change
/// sequence that advances on every change by any process (documents, configuration, rights,
/// users, tokens), cheap to poll.
pub trait ChangeFeed {
    /// The current change sequence value. Compare with an earlier value to learn whether anything
    /// changed, including in another process.
    fn change_seq(&self) -> Result<u64>;

    /// A cheap probe for commits: a commit made through this store value (or a clone) moves it
    /// before the write returns; a commit by any other connection or process moves it within a
    /// short window (SQLite: [`crate::StoreConfig::commit_marker_window_ms`], by default
    /// [`crate::sqlite::MARKER_WINDOW`], 1 ms; PostgreSQL: when its
    /// notification arrives). A different value means something may have changed, and
    /// [`ChangeFeed::change_seq`] says what. Meant for every request of a server, before
    /// deciding whether to read the sequence.
    ///
    /// The default is the change sequence itself (always correct, never cheaper).
    fn commit_marker(&self) -> Result<u64> {
        self.change_seq()
    }

    /// Registers a listener for events of writes made through this store value (and its clones).
    fn subscribe(&self, listener: ChangeListener) -> Subscription;

    /// How busy the store's connections are, for a server's metrics: read from memory, no
    /// query. The default (a store without a pool) is all zero.
    fn pool_stats(&self) -> PoolStats {
        PoolStats::default()
    }

    /// The clock the store reads ([`crate::StoreConfig::clock`]): what a server that compares
    /// its own instants with the store's (a link's issue with a user's creation) reads too, so
    /// a test that moves it moves both.
    fn clock(&self) -> Clock;
}

/// The store's connections as of now, and how long work has waited for one since it opened.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PoolStats {
    /// The most connections the store uses at once (`pool_size`; on SQLite its readers and
    /// its writer).
    pub max: usize,
    /// Connections lent to work now.
    pub in_use: usize,
    /// Connections open and free.
    pub idle: usize,
    /// How many times work waited for a connection, every one being busy.
    pub waits: u64,
    /// How long those waits took, in total.
    pub waited: Duration,
}
