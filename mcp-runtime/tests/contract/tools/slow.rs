//! A tool that works in steps until told to stop, reporting progress: what the cancellation,
//! timeout and progress tests drive. It records, on a shared flag, whether its blocking
//! worker saw the stop signal, which is what a store query's interrupt hangs on. With
//! `own_error` it answers its own error the moment its call is cancelled, as a tool whose store
//! work was interrupted does.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use mcp_runtime::prelude::*;

/// Whether the last `slow` call's blocking worker saw its call cancelled.
pub(crate) fn worker_saw_cancellation() -> &'static Arc<AtomicBool> {
    static SEEN: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    SEEN.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// Work through `steps` steps of 20 ms each, reporting progress after each.
#[mcp_tool(id = "slow", category = "Fixtures")]
pub(crate) struct Slow {
    /// How many steps.
    #[param(default = 5, range = 1..=1000)]
    steps: i64,
    /// Once the call is cancelled, answer this tool's own error at once instead of working on:
    /// what a tool whose interrupted store work failed does, racing the call path's answer.
    own_error: bool,
}

impl Execute for Slow {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        let steps = u64::try_from(self.steps).unwrap_or(1);
        // A blocking worker, as store work runs: it stops when the call's token fires.
        let token = ctx.cancellation().clone();
        let seen = Arc::clone(worker_saw_cancellation());
        seen.store(false, Ordering::SeqCst);
        std::thread::spawn(move || {
            while !token.is_cancelled() {
                std::thread::sleep(Duration::from_millis(5));
            }
            seen.store(true, Ordering::SeqCst);
        });
        if self.own_error {
            ctx.cancellation().cancelled().await;
            return Err(ToolError::new(
                "Error: slow's own answer to its interruption. Retry.",
            ));
        }
        for step in 1..=steps {
            tokio::time::sleep(Duration::from_millis(20)).await;
            ctx.progress(step, Some(steps), || format!("step {step} of {steps}"));
        }
        Ok(ToolOutput::text(format!("{steps} steps done")))
    }
}
