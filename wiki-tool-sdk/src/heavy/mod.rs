//! CPU-heavy work (rendering a page for a tool or for the signed view page, extracting a PDF's
//! text, embedding a query or a page for semantic search) runs here: on tokio's blocking pool,
//! never on the async workers that answer every other request, and at most `heavy_slots` calls'
//! jobs at a time for the whole process (tools and pages share the slots; the count is one of
//! the process's [`crate::budgets`], `serve --heavy-slots`), so pathological inputs running side
//! by side cannot take every core from the callers that are not waiting for them. The semantic
//! indexer has one slot of its own beside them, so a call never waits for its batch.
//!
//! The slots are shared fairly ([`Share`]): every job is done for a user, or for a client
//! address (the guest, and the signed link pages, which carry no credentials), and a freed slot
//! goes to the next share in turn with a job waiting, so one caller keeping ten renders in flight
//! delays another caller's render by at most one job. A share may have only a few jobs waiting
//! at once ([`NotRun::Crowded`] past them, at once). The semantic indexer's jobs
//! ([`background_slot`]) start only while no call's job waits for a slot, and stop between their
//! batches as soon as one does, so the CPU goes to the calls first.
//!
//! A caller waits at most `heavy_wait` (`--heavy-wait`, 5 s by default) for a slot, then is
//! told the server is busy and to retry ([`NotRun::Full`]; a tool says it in its error, a page
//! in a 503): queueing without bound would only move the pile-up from the CPU into memory. A
//! slot is held by the job itself, not by the call: when a call times out its job keeps the
//! slot until it ends, so the count stays true. That is also why every job must be bounded in
//! size before it is started (see `render_limits` and the PDF budget).
//!
//! A job belongs to a call's [`CancellationToken`]: a call cancelled or timed out while its job
//! waits for a slot (or for a blocking thread) never starts it ([`NotRun::Cancelled`]), so a
//! pile of abandoned calls cannot keep the slots busy after their callers left. Nothing here can
//! stop a job once it runs: a job with a long loop polls the token it captured
//! (`is_cancelled()`, an atomic load) and returns early. Work that several calls would repeat
//! (the same page rendered again) is done once and kept ([`HeavyCache`], by [`PageVersion`]).

mod cache;
mod fair;
mod page_version;
mod share;

use std::fmt;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use mcp_runtime::prelude::CancellationToken;
use mcp_runtime::prelude::{ErrorKind, ToolError};

pub use cache::{HeavyCache, WeightedLru};
pub use page_version::PageVersion;
pub use share::Share;

use fair::{FairSlots, Permit};

/// The process-wide slots for heavy jobs, as many as the process's budgets say (read on first
/// use, so budgets are installed before serving).
static SLOTS: LazyLock<Arc<FairSlots>> = LazyLock::new(|| {
    let budgets = crate::budgets::budgets();
    FairSlots::new(budgets.heavy_slots, budgets.heavy_wait)
});

/// Runs `job` for `share` on the blocking pool in one of the process's heavy slots, unless
/// `cancellation` (the call's token, `ctx.cancellation()`) fires first, or says why it did not
/// start. A panic in `job` resumes in the caller (a tool call's panic boundary catches it).
/// A tool says `run_heavy(&ctx.heavy_share(), ctx.cancellation(), job)`.
pub async fn run_heavy<T, F>(
    share: &Share,
    cancellation: &CancellationToken,
    job: F,
) -> Result<T, NotRun>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    run(&SLOTS, share, cancellation, job).await
}

/// The background slot, held by a background job (the semantic indexer's step); dropping it
/// frees the slot.
pub struct BackgroundSlot {
    permit: Permit,
}

impl BackgroundSlot {
    /// Whether a call's job is waiting because every call slot is taken. A background job that
    /// works in several parts asks between them and, when one is, stops and drops its slot:
    /// nothing can stop a job once it runs, so this is what bounds how long background work
    /// competes for the CPU with calls that are already queueing.
    pub fn wanted_by_a_call(&self) -> bool {
        self.permit.calls_waiting()
    }
}

impl fmt::Debug for BackgroundSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BackgroundSlot")
    }
}

/// Waits, on this thread, for the background slot, taken only while no call's job waits for a
/// slot; `None` once `stop` says true (asked every few milliseconds while it waits). For a background thread's work in
/// batches: take a slot per batch, and drop it between batches so calls go first (a long batch
/// asks [`BackgroundSlot::wanted_by_a_call`] between its parts). Blocks: never call it on an
/// async worker.
pub fn background_slot(stop: &dyn Fn() -> bool) -> Option<BackgroundSlot> {
    SLOTS
        .acquire_background(stop)
        .map(|permit| BackgroundSlot { permit })
}

/// Why a heavy job did not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotRun {
    /// Every slot stayed taken for the whole wait.
    Full {
        /// How many jobs run at once.
        slots: usize,
        /// How long the caller waited.
        waited: Duration,
    },
    /// This caller already has this many jobs waiting for a slot.
    Crowded {
        /// Its jobs waiting.
        waiting: usize,
    },
    /// The runtime is shutting down.
    ShuttingDown,
    /// The job's call was cancelled (or timed out) before the job started: nothing was done.
    Cancelled,
}

impl NotRun {
    /// The agent-facing message; `what` says what the busy server is doing ("rendering pages").
    pub fn message(&self, what: &str) -> String {
        match self {
            NotRun::Full { slots, waited } => format!(
                "Error: the server is busy {what} for other calls (at most {slots} at a time) \
                 and none finished within {} seconds. Retry in a few seconds.",
                waited.as_secs()
            ),
            NotRun::Crowded { waiting } => format!(
                "Error: {waiting} of your calls are already waiting for the server's heavy work \
                 ({what} among them); it takes them in turn with other callers' calls. Wait \
                 for their answers before you send more."
            ),
            NotRun::ShuttingDown => {
                "The server is shutting down; retry the call in a moment.".to_owned()
            }
            NotRun::Cancelled => format!(
                "Error: the call was cancelled while it waited to start {what}. Nothing was done."
            ),
        }
    }

    /// A tool's error for this, `what` as in [`NotRun::message`], with its audit category
    /// (`cancelled` for a cancelled call, `unavailable` otherwise).
    pub fn tool_error(&self, what: &str) -> ToolError {
        let kind = match self {
            NotRun::Cancelled => ErrorKind::Cancelled,
            NotRun::Full { .. } | NotRun::Crowded { .. } | NotRun::ShuttingDown => {
                ErrorKind::Unavailable
            }
        };
        ToolError::new(self.message(what)).with_kind(kind)
    }
}

impl fmt::Display for NotRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message("with heavy work"))
    }
}

/// [`run_heavy`] on `slots`.
async fn run<T, F>(
    slots: &Arc<FairSlots>,
    share: &Share,
    cancellation: &CancellationToken,
    job: F,
) -> Result<T, NotRun>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let permit = tokio::select! {
        // A call cancelled as its slot frees does not take the slot.
        biased;
        () = cancellation.cancelled() => return Err(NotRun::Cancelled),
        acquired = slots.acquire(share) => acquired?,
    };
    let gate = cancellation.clone();
    let running = tokio::task::spawn_blocking(move || {
        // Held by the job: a call that timed out does not free the slot of work still running.
        let _permit = permit;
        // The blocking pool may have queued the job: a call cancelled meanwhile skips it.
        (!gate.is_cancelled()).then(job)
    });
    match running.await {
        Ok(Some(value)) => Ok(value),
        Ok(None) => Err(NotRun::Cancelled),
        Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
        Err(_) => Err(NotRun::ShuttingDown),
    }
}

#[cfg(test)]
mod tests;
