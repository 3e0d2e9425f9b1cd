//! Writing the audit buffer to the farm's database, off the request path.
//!
//! One thread per manager sleeps [`FLUSH_EVERY`] (or until [`FLUSH_AT`] records wait), takes
//! the whole buffer under the lock and appends it in transactions of at most [`MAX_BATCH`]
//! rows. A call therefore costs one short lock and no I/O, and the database sees a few
//! transactions a second however many calls arrive. Stopping (the manager dropped) wakes the
//! thread for a last flush and waits for it, so a server shutting down loses no record.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use wiki_store::Store;

use super::{RecentCalls, retention};

/// How long a record waits at most before it is written.
pub(crate) const FLUSH_EVERY: Duration = Duration::from_millis(250);

/// Records waiting that wake the thread before [`FLUSH_EVERY`].
pub(crate) const FLUSH_AT: usize = 512;

/// Rows per transaction at most.
const MAX_BATCH: usize = 2000;

/// Records kept waiting at most (a database that does not answer must not grow the buffer
/// without bound); beyond, calls are still logged, but not stored.
pub(crate) const MAX_PENDING: usize = 50_000;

/// The flushing thread; stopped and joined on drop.
pub(crate) struct AuditFlusher {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl AuditFlusher {
    /// Starts writing `recent`'s buffer into `store`. Without a thread (the system refused
    /// one), calls are still logged and kept in memory; the failure is logged.
    pub(crate) fn start(recent: Arc<RecentCalls>, store: Arc<dyn Store>) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = Arc::clone(&stop);
        let flushed = Arc::clone(&recent);
        let thread = std::thread::Builder::new()
            .name("audit-flush".to_owned())
            .spawn(move || run(&flushed, &*store, &stopping));
        let thread = match thread {
            Ok(thread) => {
                let _ = recent.flusher.set(thread.thread().clone());
                Some(thread)
            }
            Err(error) => {
                tracing::error!(%error, "cannot start the audit writer: calls are logged, not stored");
                None
            }
        };
        AuditFlusher { stop, thread }
    }
}

impl Drop for AuditFlusher {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            if thread.join().is_err() {
                tracing::error!("the audit writer panicked");
            }
        }
    }
}

fn run(recent: &RecentCalls, store: &dyn Store, stop: &AtomicBool) {
    loop {
        std::thread::park_timeout(FLUSH_EVERY);
        let stopping = stop.load(Ordering::Acquire);
        flush(recent, store);
        if stopping {
            return;
        }
    }
}

/// Writes what waits; a batch the store refuses is dropped (and said in the log).
fn flush(recent: &RecentCalls, store: &dyn Store) {
    let (pending, dropped) = recent.take_pending();
    if dropped > 0 {
        tracing::warn!(
            dropped,
            "the audit buffer was full: calls were logged but not stored (is the database reachable?)"
        );
    }
    for batch in pending.chunks(MAX_BATCH) {
        if let Err(error) = store.append_audit(batch, retention()) {
            tracing::warn!(%error, calls = batch.len(), "the audit record could not be stored: the calls are in the log only");
        }
    }
}
