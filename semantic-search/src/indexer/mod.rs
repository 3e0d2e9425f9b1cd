//! The background indexer: a thread of its own that keeps every wiki's semantic index current,
//! one per farm however many processes serve it.
//!
//! Of the processes serving one farm (PostgreSQL replicas, or several on one SQLite directory)
//! only the one holding the store's lease [`LEASE`] indexes; the others would embed the same
//! rows again and race on the same vector rows. Every process asks for the lease each [`POLL`]
//! (the holder renews it, for [`LEASE_TTL`], from a thread of its own: see `lease`), so when the
//! holder dies without releasing it (SIGKILL) another takes over once it expires; one that stops
//! releases it on the way out.
//! A process without the lease still serves queries: its in-memory vectors follow what the
//! holder stores, through the store's vector sequence, within a [`TICK`].
//!
//! The holder wakes on this process's change events (a save, a new wiki) and checks the
//! store's commit marker every [`TICK`] (cheap: no query) for other processes' writes, then
//! indexes stale rows [`ROWS_PER_STEP`] at a time (fewer when they make more chunks than a step
//! embeds, see [`crate::CHUNKS_PER_STEP`]) until none is left, checking between steps whether it
//! was asked to stop. Embedding is CPU-heavy: a thread of its own keeps it off the async workers,
//! and each step runs in the process's background heavy slot ([`background_slot`]), beside the
//! calls' slots, so a call that renders a page, reads a PDF or embeds a query never waits for the
//! indexer's embedding, which nothing can interrupt. A step starts only while no call waits for
//! a slot, and ends after the model batch it is embedding once one does
//! ([`wiki_tool_sdk::heavy::BackgroundSlot::wanted_by_a_call`]): the CPU goes to the calls first.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use wiki_tool_sdk::heavy::background_slot;
use wiki_tool_sdk::startup::Gauge;
use wiki_tool_sdk::store::Store;
use wiki_tool_sdk::store::api::Subscription;
use wiki_tool_sdk::store::model::change::{ChangeEvent, ChangeKind};

use crate::index::SemanticIndex;

mod lease;

use lease::{Held, Keeper};

/// The store lease whose holder indexes the farm.
pub const LEASE: &str = "semantic-indexer";

/// How often the lease is asked for (renewed by its holder), and the longest the holder goes
/// without a pass.
pub(crate) const POLL: Duration = Duration::from_secs(5);

/// How long a lease lasts unrenewed: three missed renewals, so a slow pass or a busy database
/// does not hand it over, and a dead holder is replaced within 15 to 20 seconds.
pub const LEASE_TTL: Duration = Duration::from_secs(15);

/// How often the commit marker is checked for other processes' writes.
const TICK: Duration = Duration::from_secs(1);

/// Rows indexed per step.
const ROWS_PER_STEP: usize = 32;

/// How long the indexer rests after a store failure before it works again.
const BACKOFF: Duration = Duration::from_secs(30);

/// A running background indexer; dropping it stops the thread (after its current step), then
/// gives the lease up.
pub struct Indexer {
    stop: Arc<AtomicBool>,
    wake: SyncSender<()>,
    thread: Option<JoinHandle<()>>,
    /// The lease keeper: its channel (dropped to stop it) and its thread.
    keeper: Option<(SyncSender<()>, JoinHandle<()>)>,
    /// Asks for the lease as the keeper does, on the caller's thread.
    asker: Option<Keeper>,
    _subscription: Subscription,
}

impl std::fmt::Debug for Indexer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Indexer").finish_non_exhaustive()
    }
}

impl Indexer {
    /// Starts indexing `store` with `index`. Without a model there is nothing to do: the
    /// thread is not started (and the lease never asked for).
    pub fn spawn(store: Arc<dyn Store>, index: SemanticIndex) -> std::io::Result<Indexer> {
        Self::spawn_reporting(store, index, Gauge::new("semantic_index_backlog", ""))
    }

    /// [`Indexer::spawn`], setting `backlog` to the rows left to embed after each pass (the
    /// start-up hook publishes it with the server's metrics).
    pub fn spawn_reporting(
        store: Arc<dyn Store>,
        index: SemanticIndex,
        backlog: Gauge,
    ) -> std::io::Result<Indexer> {
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
        let mut indexer = Indexer {
            stop: Arc::clone(&stop),
            wake,
            thread: None,
            keeper: None,
            asker: None,
            _subscription: subscription,
        };
        if index.embedder().is_none() {
            return Ok(indexer);
        }
        let held = Held::default();
        let keeper = Keeper {
            store: Arc::clone(&store),
            index: index.clone(),
            holder: holder_id(),
            held: held.clone(),
        };
        indexer.asker = Some(keeper.clone());
        let (keep, stopped) = mpsc::sync_channel::<()>(1);
        let keeping = std::thread::Builder::new()
            .name("semantic-indexer-lease".into())
            .spawn(move || keeper.run(&stopped))?;
        // Stored first: if the indexing thread cannot start, dropping `indexer` stops the keeper.
        indexer.keeper = Some((keep, keeping));
        let worker = Worker {
            store,
            index,
            stop,
            held,
            backlog,
        };
        indexer.thread = Some(
            std::thread::Builder::new()
                .name("semantic-indexer".into())
                .spawn(move || worker.run(&woken))?,
        );
        Ok(indexer)
    }
}

impl Indexer {
    /// Asks for (or renews) the farm's indexer lease now, as its keeper does every 5 seconds,
    /// and returns whether this process holds it (and so indexes). Without a model there is no
    /// indexing and no lease: false. What a test of the hand-over calls instead of waiting for
    /// the keeper's next turn.
    pub fn ask_lease_now(&self) -> bool {
        self.asker.as_ref().is_some_and(Keeper::ask_now)
    }
}

/// A holder id unique to this process (and this indexer): the pid for an operator reading
/// the table, and 64 bits from std's randomly seeded hasher (keys from the OS's random source)
/// over the clock, so a pid reused on another host or after a restart differs.
fn holder_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    if let Ok(since) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        hasher.write_u128(since.as_nanos());
    }
    format!("pid{}-{:016x}", std::process::id(), hasher.finish())
}

/// The indexer thread's state.
struct Worker {
    store: Arc<dyn Store>,
    index: SemanticIndex,
    stop: Arc<AtomicBool>,
    /// Whether this process holds the lease (kept by the keeper thread).
    held: Held,
    /// The rows left to embed after the last pass.
    backlog: Gauge,
}

impl Worker {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    fn run(self, woken: &Receiver<()>) {
        // The commit marker the last pass started at.
        let mut passed_at: Option<u64> = None;
        let mut last_pass = Instant::now();
        let mut pending = true;
        // After a store failure, no work until then (the keeper renews the lease meanwhile, so
        // a passing failure does not hand the farm to another process).
        let mut resume_at: Option<Instant> = None;
        while !self.stopped() {
            let holding = self.held.get();
            let marker = self.store.commit_marker().ok();
            let moved = marker.is_none() || marker != passed_at;
            let resting = resume_at.is_some_and(|at| Instant::now() < at);
            let outcome = if resting {
                Ok(())
            } else if holding && (pending || moved || last_pass.elapsed() >= POLL) {
                pending = false;
                last_pass = Instant::now();
                passed_at = marker;
                pass(
                    &*self.store,
                    &self.index,
                    &self.stop,
                    &self.backlog,
                    &|| self.held.get(),
                )
            } else if !holding && moved {
                passed_at = marker;
                self.index.follow_stored_vectors(&*self.store)
            } else {
                Ok(())
            };
            let outcome = outcome.and_then(|()| self.index.reload_old_matrices(&*self.store));
            match outcome {
                Ok(()) if !resting => resume_at = None,
                Ok(()) => {}
                Err(error) => {
                    tracing::warn!(%error, "semantic indexing failed; retrying later");
                    // Try again from scratch after the pause.
                    passed_at = None;
                    resume_at = Some(Instant::now() + BACKOFF);
                }
            }
            if self.stopped() {
                break;
            }
            match woken.recv_timeout(TICK) {
                Ok(()) => pending = true,
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    }
}

/// Indexes every wiki until nothing is stale, a stop is asked for or `holding` says the lease
/// was lost (asked before each step), then brings the in-memory vectors up to what other
/// processes stored.
fn pass(
    store: &dyn Store,
    index: &SemanticIndex,
    stop: &AtomicBool,
    backlog: &Gauge,
    holding: &dyn Fn() -> bool,
) -> crate::Result<()> {
    let mut remaining = 0_u64;
    for wiki in store.list_wikis()? {
        loop {
            let stopped = || stop.load(Ordering::Acquire);
            if !holding() {
                return Ok(());
            }
            // Held for this step only: between steps, calls waiting for a slot go first.
            let Some(slot) = background_slot(&stopped) else {
                return Ok(());
            };
            // A step also ends after its current batch when the server stops: its shutdown
            // waits for this thread, within a deadline.
            let done = index.catch_up_if_changed(store, &wiki.id, ROWS_PER_STEP, &|| {
                slot.wanted_by_a_call() || stopped()
            });
            drop(slot);
            let done = done?;
            if done.rows > 0 {
                tracing::debug!(wiki = %wiki.id, rows = done.rows, embedded = done.embedded, remaining = done.remaining, "indexed");
            }
            if done.remaining == 0 || done.rows == 0 {
                remaining = remaining.saturating_add(done.remaining);
                break;
            }
        }
    }
    backlog.set(i64::try_from(remaining).unwrap_or(i64::MAX));
    index.follow_stored_vectors(store)
}

impl Drop for Indexer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        let _ = self.wake.try_send(());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        // Then the lease goes: no step of this process runs once another may take it.
        if let Some((keep, keeping)) = self.keeper.take() {
            drop(keep);
            let _ = keeping.join();
        }
    }
}
