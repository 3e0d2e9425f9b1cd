//! The background indexer: a thread of its own that keeps every wiki's semantic index current.
//!
//! It wakes on this process's change events (a save, a delete, a new wiki) and at least every
//! [`POLL`] (for other processes' writes, which reach it only through the store), then indexes
//! stale rows [`ROWS_PER_STEP`] at a time until none is left, checking between steps whether it
//! was asked to stop. Embedding is CPU-heavy; a thread of its own keeps it off the async
//! workers, and one thread keeps it to one core.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, SyncSender};
use std::thread::JoinHandle;
use std::time::Duration;

use wiki_server::store::Store;
use wiki_server::store::api::Subscription;
use wiki_server::store::model::change::{ChangeEvent, ChangeKind};

use crate::index::SemanticIndex;

/// The longest the indexer sleeps without an event.
pub(crate) const POLL: Duration = Duration::from_secs(5);

/// Rows indexed per step.
const ROWS_PER_STEP: usize = 32;

/// How long the indexer waits after a store failure before it tries again.
const BACKOFF: Duration = Duration::from_secs(30);

/// A running background indexer; dropping it stops the thread (after its current step).
pub struct Indexer {
    stop: Arc<AtomicBool>,
    wake: SyncSender<()>,
    thread: Option<JoinHandle<()>>,
    _subscription: Subscription,
}

impl std::fmt::Debug for Indexer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Indexer").finish_non_exhaustive()
    }
}

impl Indexer {
    /// Starts indexing `store` with `index`. Without a model there is nothing to do: the
    /// thread is not started.
    pub fn spawn(store: Arc<dyn Store>, index: SemanticIndex) -> std::io::Result<Indexer> {
        let stop = Arc::new(AtomicBool::new(false));
        // One pending wake-up is enough: a pass sees every change made before it starts.
        let (wake, woken) = mpsc::sync_channel::<()>(1);
        let notify = wake.clone();
        let subscription = store.subscribe(Arc::new(move |event: &ChangeEvent| {
            if matches!(
                event.kind,
                ChangeKind::DocumentSaved { .. } | ChangeKind::WikiCreated
            ) {
                let _ = notify.try_send(());
            }
        }));
        let thread = if index.embedder().is_some() {
            let stop = Arc::clone(&stop);
            Some(
                std::thread::Builder::new()
                    .name("semantic-indexer".into())
                    .spawn(move || {
                        loop {
                            let wait = match pass(&*store, &index, &stop) {
                                Ok(()) => POLL,
                                Err(error) => {
                                    tracing::warn!(%error, "semantic indexing failed; retrying later");
                                    BACKOFF
                                }
                            };
                            if stop.load(Ordering::Acquire) {
                                return;
                            }
                            match woken.recv_timeout(wait) {
                                Ok(()) | Err(RecvTimeoutError::Timeout) => {}
                                Err(RecvTimeoutError::Disconnected) => return,
                            }
                            if stop.load(Ordering::Acquire) {
                                return;
                            }
                        }
                    })?,
            )
        } else {
            None
        };
        Ok(Indexer {
            stop,
            wake,
            thread,
            _subscription: subscription,
        })
    }
}

/// Indexes every wiki until nothing is stale or a stop is asked for.
fn pass(store: &dyn Store, index: &SemanticIndex, stop: &AtomicBool) -> crate::Result<()> {
    for wiki in store.list_wikis()? {
        loop {
            if stop.load(Ordering::Acquire) {
                return Ok(());
            }
            let done = index.catch_up_if_changed(store, &wiki.id, ROWS_PER_STEP)?;
            if done.rows > 0 {
                tracing::debug!(wiki = %wiki.id, rows = done.rows, embedded = done.embedded, remaining = done.remaining, "indexed");
            }
            if done.remaining == 0 || done.rows == 0 {
                break;
            }
        }
    }
    // What no event reported (another process's vectors), off the query path.
    index.reload_old_matrices(store)
}

impl Drop for Indexer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        let _ = self.wake.try_send(());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
