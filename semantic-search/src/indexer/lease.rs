//! The indexer's lease, kept by a thread of its own: asked for (renewed by the holder) every
//! [`POLL`] whatever the indexing thread is doing. A step's embedding cannot be interrupted and
//! can outlast [`LEASE_TTL`] on a busy machine (the model's first run pages its weights in); a
//! holder that renewed only between steps would see another process take the lease and index
//! the same rows beside it. The lease says the process is alive, not that it is fast.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};

use wiki_tool_sdk::store::Store;

use super::{LEASE, LEASE_TTL, POLL};
use crate::index::SemanticIndex;

/// Whether this process holds the lease, as last asked; shared with the indexing thread.
#[derive(Clone, Default)]
pub(super) struct Held(Arc<AtomicBool>);

impl Held {
    pub(super) fn get(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}

/// The lease keeper's state; a clone asks on behalf of the same process
/// ([`crate::Indexer::ask_lease_now`]).
#[derive(Clone)]
pub(super) struct Keeper {
    pub(super) store: Arc<dyn Store>,
    pub(super) index: SemanticIndex,
    /// This process's holder id.
    pub(super) holder: String,
    pub(super) held: Held,
}

impl Keeper {
    /// Asks for the lease every [`POLL`] until `stopped` is disconnected (the indexer is
    /// dropped, after its indexing thread ended), then releases it if held.
    pub(super) fn run(self, stopped: &Receiver<()>) {
        // Unknown until first asked, so the first answer is logged either way.
        let mut holding: Option<bool> = None;
        loop {
            holding = Some(self.ask(holding));
            match stopped.recv_timeout(POLL) {
                Ok(()) | Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        self.held.0.store(false, Ordering::Release);
        if holding == Some(true) {
            match self.store.release_lease(LEASE, &self.holder) {
                Ok(_) => {
                    tracing::info!(holder = %self.holder, "semantic indexer stopped; lease released")
                }
                Err(error) => {
                    tracing::warn!(%error, "could not release the semantic indexer's lease; it expires by itself")
                }
            }
        }
    }

    /// Asks for (or renews) the lease now, outside the keeper's turn; whether this process
    /// holds it.
    pub(super) fn ask_now(&self) -> bool {
        self.ask(Some(self.held.get()))
    }

    /// Asks for (or renews) the lease; whether this process holds it now (`held`: as last
    /// asked, for the log). A failure counts as not holding it: the database is what the lease
    /// is kept in.
    fn ask(&self, held: Option<bool>) -> bool {
        let holding = match self.store.try_lease(LEASE, &self.holder, LEASE_TTL) {
            Ok(holding) => holding,
            Err(error) => {
                tracing::warn!(%error, "could not renew the semantic indexer's lease");
                false
            }
        };
        if Some(holding) != held {
            if holding {
                tracing::info!(holder = %self.holder, "this process indexes the farm (semantic indexer lease taken)");
            } else {
                tracing::info!(holder = %self.holder, "another process indexes the farm (semantic indexer lease held elsewhere)");
            }
        }
        self.held.0.store(holding, Ordering::Release);
        self.index.set_indexed_elsewhere(!holding);
        holding
    }
}
