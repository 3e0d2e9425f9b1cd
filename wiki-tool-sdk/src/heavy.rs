//! CPU-heavy work (rendering a page for a tool or for the signed view page, extracting a PDF's
//! text) runs here: on tokio's blocking pool, never on the async workers that answer every other
//! request, and at most `heavy_slots` jobs at a time for the whole process (tools and pages
//! share the slots; the count is one of the process's [`crate::budgets`], `serve --heavy-slots`), so pathological inputs running side by side cannot take every core from the
//! callers that are not waiting for them.
//!
//! A caller waits at most `heavy_wait` (`--heavy-wait`, 5 s by default) for a slot, then is told the server is busy and to
//! retry ([`NotRun::Full`]; a tool says it in its error, a page in a 503): queueing without bound would only move the pile-up from the CPU into memory. A slot is
//! held by the job itself, not by the call: when a call times out its job keeps the slot until
//! it ends, so the count stays true. That is also why every job must be bounded in size before
//! it is started (see `render_limits` and the PDF budget).
//!
//! A job belongs to a call's [`CancellationToken`]: a call cancelled or timed out while its job
//! waits for a slot (or for a blocking thread) never starts it ([`NotRun::Cancelled`]), so a
//! pile of abandoned calls cannot keep the slots busy after their callers left. Nothing here can
//! stop a job once it runs: a job with a long loop polls the token it captured
//! (`is_cancelled()`, an atomic load) and returns early.

use std::fmt;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use mcp_runtime::prelude::CancellationToken;
use mcp_runtime::prelude::{ErrorKind, ToolError};
use tokio::sync::Semaphore;

/// The process-wide slots for heavy jobs, as many as the process's budgets say (read on first
/// use, so budgets are installed before serving).
static SLOTS: LazyLock<Slots> = LazyLock::new(|| {
    let budgets = crate::budgets::budgets();
    Slots::new(budgets.heavy_slots, budgets.heavy_wait)
});

/// Runs `job` on the blocking pool in one of the process's heavy slots, unless `cancellation`
/// (the call's token, `ctx.cancellation()`) fires first, or says why it did not start. A panic
/// in `job` resumes in the caller (a tool call's panic boundary catches it).
pub async fn run_heavy<T, F>(cancellation: &CancellationToken, job: F) -> Result<T, NotRun>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    SLOTS.run(cancellation, job).await
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
            NotRun::ShuttingDown => {
                "The server is shutting down; retry the call in a moment.".to_owned()
            }
            NotRun::Cancelled => format!(
                "Error: the call was cancelled while it waited to start {what}. Nothing was done."
            ),
        }
    }
}

impl NotRun {
    /// A tool's error for this, `what` as in [`NotRun::message`], with its audit category
    /// (`cancelled` for a cancelled call, `unavailable` otherwise).
    pub fn tool_error(&self, what: &str) -> ToolError {
        let kind = match self {
            NotRun::Cancelled => ErrorKind::Cancelled,
            NotRun::Full { .. } | NotRun::ShuttingDown => ErrorKind::Unavailable,
        };
        ToolError::new(self.message(what)).with_kind(kind)
    }
}

impl fmt::Display for NotRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message("with heavy work"))
    }
}

/// A bounded set of slots for heavy jobs, and how long a call waits for one.
struct Slots {
    semaphore: Arc<Semaphore>,
    count: usize,
    wait: Duration,
}

impl Slots {
    fn new(count: usize, wait: Duration) -> Self {
        Self {
            semaphore: Arc::new(Semaphore::new(count)),
            count,
            wait,
        }
    }

    async fn run<T, F>(&self, cancellation: &CancellationToken, job: F) -> Result<T, NotRun>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let acquiring =
            tokio::time::timeout(self.wait, Arc::clone(&self.semaphore).acquire_owned());
        let acquired = tokio::select! {
            // A call cancelled as its slot frees does not take the slot.
            biased;
            () = cancellation.cancelled() => return Err(NotRun::Cancelled),
            acquired = acquiring => acquired,
        };
        let permit = match acquired {
            Ok(Ok(permit)) => permit,
            Ok(Err(_closed)) => return Err(NotRun::ShuttingDown),
            Err(_elapsed) => {
                return Err(NotRun::Full {
                    slots: self.count,
                    waited: self.wait,
                });
            }
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
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    /// Runs a job answering 7 in one of `slots` that holds it until the returned sender is
    /// used (or dropped); returns once the job runs.
    async fn hold_a_slot(
        slots: &Arc<Slots>,
    ) -> (
        mpsc::Sender<()>,
        tokio::task::JoinHandle<Result<i32, NotRun>>,
    ) {
        let (release, hold) = mpsc::channel::<()>();
        let (started, is_running) = tokio::sync::oneshot::channel::<()>();
        let busy = Arc::clone(slots);
        let holder = tokio::spawn(async move {
            busy.run(&CancellationToken::new(), move || {
                let _ = started.send(());
                let _ = hold.recv();
                7
            })
            .await
        });
        let _ = is_running.await;
        (release, holder)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_call_past_the_wait_is_told_to_retry_and_a_free_slot_runs() {
        let slots = Arc::new(Slots::new(1, Duration::from_millis(50)));
        let (release, first) = hold_a_slot(&slots).await;
        let refused = slots.run(&CancellationToken::new(), || 1).await;
        assert_eq!(
            refused.map_err(|busy| busy.message("rendering pages")),
            Err(
                "Error: the server is busy rendering pages for other calls (at most 1 at a time) \
                 and none finished within 0 seconds. Retry in a few seconds."
                    .to_owned()
            )
        );
        let _ = release.send(());
        let value = first.await.map_err(|_| ()).and_then(|r| r.map_err(|_| ()));
        assert_eq!(value, Ok(7));
        let after = slots.run(&CancellationToken::new(), || 2).await;
        assert_eq!(after.map_err(|_| ()), Ok(2));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_cancelled_call_never_starts_its_job_waiting_or_not() {
        let slots = Arc::new(Slots::new(1, Duration::from_secs(5)));
        let ran = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let job = |ran: &Arc<std::sync::atomic::AtomicBool>| {
            let ran = Arc::clone(ran);
            move || ran.store(true, std::sync::atomic::Ordering::SeqCst)
        };
        let cancelled = CancellationToken::new();
        cancelled.cancel();
        assert_eq!(
            slots.run(&cancelled, job(&ran)).await,
            Err(NotRun::Cancelled),
            "a free slot does not start the job of a call already cancelled"
        );

        let (release, holder) = hold_a_slot(&slots).await;
        let call = CancellationToken::new();
        let waiting = {
            let (slots, call, job) = (Arc::clone(&slots), call.clone(), job(&ran));
            tokio::spawn(async move { slots.run(&call, job).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        call.cancel();
        let _ = release.send(());
        let waited = waiting.await.map_err(|_| ());
        assert_eq!(waited, Ok(Err(NotRun::Cancelled)));
        assert!(holder.await.is_ok_and(|held| held.is_ok()));
        assert!(!ran.load(std::sync::atomic::Ordering::SeqCst));
        assert_eq!(
            NotRun::Cancelled.message("rendering pages"),
            "Error: the call was cancelled while it waited to start rendering pages. Nothing \
             was done."
        );
    }
}
