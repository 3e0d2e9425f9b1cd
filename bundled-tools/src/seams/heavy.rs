//! CPU-heavy work (rendering a page, extracting a PDF's text) runs here: on tokio's blocking
//! pool, never on the async workers that answer every other call, and at most
//! [`heavy_slots`] jobs at a time for the whole process, so pathological inputs running side by
//! side cannot take every core from the callers that are not waiting for them.
//!
//! A call waits at most [`HEAVY_WAIT`] for a slot, then is told the server is busy and to
//! retry: queueing without bound would only move the pile-up from the CPU into memory. A slot is
//! held by the job itself, not by the call: when a call times out its job keeps the slot until
//! it ends, so the count stays true. That is also why every job must be bounded in size before
//! it is started (see `render_limits` and the PDF budget); nothing here can stop a running job.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use mcp_runtime::prelude::*;
use tokio::sync::Semaphore;

/// How long a call waits for a free slot before it is told that the server is busy.
pub(crate) const HEAVY_WAIT: Duration = Duration::from_secs(5);

/// The process-wide slots for heavy jobs.
static SLOTS: LazyLock<Slots> = LazyLock::new(|| Slots::new(heavy_slots(), HEAVY_WAIT));

/// How many heavy jobs run at once: half the cores (at least one), so the other half keeps
/// answering the calls that do not wait for them.
pub(crate) fn heavy_slots() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |cores| cores.get() / 2)
        .max(1)
}

/// Runs `job` on the blocking pool in one of the process's heavy slots. `what` says what the
/// busy server is doing, for the retry message ("rendering pages").
pub(crate) async fn run_heavy<T, F>(what: &str, job: F) -> Result<T, ToolError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    SLOTS.run(what, job).await
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

    async fn run<T, F>(&self, what: &str, job: F) -> Result<T, ToolError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let acquired =
            tokio::time::timeout(self.wait, Arc::clone(&self.semaphore).acquire_owned()).await;
        let permit = match acquired {
            Ok(Ok(permit)) => permit,
            Ok(Err(_closed)) => return Err(shutting_down()),
            Err(_elapsed) => {
                return Err(ToolError::new(format!(
                    "Error: the server is busy {what} for other calls (at most {} at a time) \
                     and none finished within {} seconds. Retry in a few seconds.",
                    self.count,
                    self.wait.as_secs()
                )));
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
            Err(_) => Err(shutting_down()),
        }
    }
}

fn shutting_down() -> ToolError {
    ToolError::new("The server is shutting down; retry the call in a moment.")
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
            busy.run("rendering pages", move || {
                let _ = started.send(());
                let _ = hold.recv();
                7
            })
            .await
        });
        let _ = is_running.await;
        let refused = slots.run("rendering pages", || 1).await;
        assert_eq!(
            refused.map_err(|error| error.message().to_owned()),
            Err(
                "Error: the server is busy rendering pages for other calls (at most 1 at a time) \
                 and none finished within 0 seconds. Retry in a few seconds."
                    .to_owned()
            )
        );
        let _ = release.send(());
        let value = first.await.map_err(|_| ()).and_then(|r| r.map_err(|_| ()));
        assert_eq!(value, Ok(7));
        let after = slots.run("rendering pages", || 2).await;
        assert_eq!(after.map_err(|_| ()), Ok(2));
    }

    #[test]
    fn half_the_cores_at_least_one() {
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        assert_eq!(heavy_slots(), (cores / 2).max(1));
    }
}
