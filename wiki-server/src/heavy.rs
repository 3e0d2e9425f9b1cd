//! CPU-heavy work (rendering a page for a tool or for the signed view page, extracting a PDF's
//! text) runs here: on tokio's blocking pool, never on the async workers that answer every other
//! request, and at most [`heavy_slots`] jobs at a time for the whole process (tools and pages
//! share the slots), so pathological inputs running side by side cannot take every core from the
//! callers that are not waiting for them.
//!
//! A caller waits at most [`HEAVY_WAIT`] for a slot, then is told the server is busy and to
//! retry ([`Busy`]; a tool says it in its error, a page in a 503): queueing without bound would only move the pile-up from the CPU into memory. A slot is
//! held by the job itself, not by the call: when a call times out its job keeps the slot until
//! it ends, so the count stays true. That is also why every job must be bounded in size before
//! it is started (see `render_limits` and the PDF budget); nothing here can stop a running job.

use std::fmt;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use tokio::sync::Semaphore;

/// How long a call waits for a free slot before it is told that the server is busy.
pub const HEAVY_WAIT: Duration = Duration::from_secs(5);

/// The process-wide slots for heavy jobs.
static SLOTS: LazyLock<Slots> = LazyLock::new(|| Slots::new(heavy_slots(), HEAVY_WAIT));

/// How many heavy jobs run at once: half the cores (at least one), so the other half keeps
/// answering the calls that do not wait for them.
pub fn heavy_slots() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |cores| cores.get() / 2)
        .max(1)
}

/// Runs `job` on the blocking pool in one of the process's heavy slots, or says why it did not
/// start. A panic in `job` resumes in the caller (a tool call's panic boundary catches it).
pub async fn run_heavy<T, F>(job: F) -> Result<T, Busy>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    SLOTS.run(job).await
}

/// Why a heavy job did not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Busy {
    /// Every slot stayed taken for the whole wait.
    Full {
        /// How many jobs run at once.
        slots: usize,
        /// How long the caller waited.
        waited: Duration,
    },
    /// The runtime is shutting down.
    ShuttingDown,
}

impl Busy {
    /// The agent-facing message; `what` says what the busy server is doing ("rendering pages").
    pub fn message(&self, what: &str) -> String {
        match self {
            Busy::Full { slots, waited } => format!(
                "Error: the server is busy {what} for other calls (at most {slots} at a time) \
                 and none finished within {} seconds. Retry in a few seconds.",
                waited.as_secs()
            ),
            Busy::ShuttingDown => {
                "The server is shutting down; retry the call in a moment.".to_owned()
            }
        }
    }
}

impl fmt::Display for Busy {
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

    async fn run<T, F>(&self, job: F) -> Result<T, Busy>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let acquired =
            tokio::time::timeout(self.wait, Arc::clone(&self.semaphore).acquire_owned()).await;
        let permit = match acquired {
            Ok(Ok(permit)) => permit,
            Ok(Err(_closed)) => return Err(Busy::ShuttingDown),
            Err(_elapsed) => {
                return Err(Busy::Full {
                    slots: self.count,
                    waited: self.wait,
                });
            }
        };
        let running = tokio::task::spawn_blocking(move || {
            // Held by the job: a call that timed out does not free the slot of work still running.
            let _permit = permit;
            job()
        });
        match running.await {
            Ok(value) => Ok(value),
            Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
            Err(_) => Err(Busy::ShuttingDown),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_call_past_the_wait_is_told_to_retry_and_a_free_slot_runs() {
        let slots = Arc::new(Slots::new(1, Duration::from_millis(50)));
        let (release, hold) = mpsc::channel::<()>();
        let (started, is_running) = tokio::sync::oneshot::channel::<()>();
        let busy = Arc::clone(&slots);
        let first = tokio::spawn(async move {
            busy.run(move || {
                let _ = started.send(());
                let _ = hold.recv();
                7
            })
            .await
        });
        let _ = is_running.await;
        let refused = slots.run(|| 1).await;
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
        let after = slots.run(|| 2).await;
        assert_eq!(after.map_err(|_| ()), Ok(2));
    }

    #[test]
    fn half_the_cores_at_least_one() {
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        assert_eq!(heavy_slots(), (cores / 2).max(1));
    }
}
