//! `execute_wrapped`: what runs around every tool call, as named steps.
//!
//! 1. **Refuse guest writes**: the guest's tool list has no write tool, and a guest calling one
//!    by name is refused here a second time (defence in depth: the list and the call are two
//!    doors).
//! 2. **Parse and run**: the declaration's `invoke` parses the arguments (a bad argument is an
//!    `isError` result with the parameter's message) and runs the tool, under the per-call
//!    timeout and inside a panic boundary that covers both creating and polling the future.
//! 3. **Normalize**: a panic or a timeout becomes a generic `isError` result that leaks nothing
//!    (details only in the log), never a JSON-RPC error or a dropped connection.
//! 4. **Audit**: one event per call ([`crate::audit`]), never the arguments.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use rmcp::model::{CallToolResult, ContentBlock as RmcpContent};

use crate::audit::{self, Outcome};
use crate::param::JsonObject;
use crate::server::ServedTool;
use crate::tool::{ContentBlock, ToolContext, ToolError, ToolOutput, ToolResult};

/// Runs `served` for the caller of `ctx` with `arguments` and returns the MCP result: output, or
/// an `isError` result for every failure, internal ones included.
pub async fn execute_wrapped(
    served: ServedTool,
    ctx: &ToolContext,
    arguments: &JsonObject,
    timeout: Duration,
) -> CallToolResult {
    let started = Instant::now();
    let id = served.tool.id();
    let (outcome, result) = match refuse_guest_write(served, ctx) {
        Err(refusal) => (Outcome::Error, Err(refusal)),
        Ok(()) => run(served, ctx, arguments, timeout).await,
    };
    audit::record(
        id,
        &ctx.wiki,
        ctx.principal_name(),
        outcome,
        started.elapsed(),
    );
    to_mcp(result)
}

/// Step 1: the guest never runs a write tool.
fn refuse_guest_write(served: ServedTool, ctx: &ToolContext) -> Result<(), ToolError> {
    if ctx.is_guest() && served.tool.declaration().write {
        Err(ToolError::new(format!(
            "Error: '{}' changes content, which guests cannot do. Connect with an API token \
             (Authorization: Bearer <token>) of a user allowed to edit.",
            served.tool.id()
        )))
    } else {
        Ok(())
    }
}

/// Steps 2 and 3: parse and run under the timeout and the panic boundary.
async fn run(
    served: ServedTool,
    ctx: &ToolContext,
    arguments: &JsonObject,
    timeout: Duration,
) -> (Outcome, ToolResult) {
    let id = served.tool.id();
    let invoke = served.tool.declaration().invoke;
    let future = match catch_unwind(AssertUnwindSafe(|| invoke(ctx, arguments))) {
        Ok(future) => future,
        Err(panic) => return (Outcome::Failed, Err(internal_error(id, &*panic))),
    };
    match tokio::time::timeout(timeout, CatchUnwind(future)).await {
        Ok(Ok(Ok(output))) => (Outcome::Ok, Ok(output)),
        Ok(Ok(Err(error))) => (Outcome::Error, Err(error)),
        Ok(Err(panic)) => (Outcome::Failed, Err(internal_error(id, &*panic))),
        Err(_elapsed) => {
            tracing::warn!(tool = id, wiki = %ctx.wiki, timeout_s = timeout.as_secs_f64(), "tool call timed out");
            (
                Outcome::Failed,
                Err(ToolError::new(format!(
                    "Error: tool '{id}' timed out after {} and was stopped. Retry with a \
                     narrower request (a smaller limit, a more specific query); if it keeps \
                     timing out, tell an administrator.",
                    seconds(timeout)
                ))),
            )
        }
    }
}

/// The generic result of a panicking tool; the panic itself goes to the log only.
fn internal_error(id: &str, panic: &(dyn Any + Send)) -> ToolError {
    tracing::error!(
        tool = id,
        panic = crate::server::panic_message(panic),
        "tool panicked; the caller got a generic error"
    );
    ToolError::new(format!(
        "Internal error in tool '{id}'. Retry the call; if it keeps failing, tell an \
         administrator (the details are in the server log)."
    ))
}

fn seconds(duration: Duration) -> String {
    let millis = duration.as_millis();
    if millis.is_multiple_of(1000) {
        format!("{} s", millis / 1000)
    } else {
        format!("{} ms", millis)
    }
}

/// A tool's result as MCP content; an error is one text block with `isError: true`.
fn to_mcp(result: ToolResult) -> CallToolResult {
    match result {
        Ok(ToolOutput { content }) => CallToolResult::success(
            content
                .into_iter()
                .map(|block| match block {
                    ContentBlock::Text(text) => RmcpContent::text(text),
                    ContentBlock::Image { data, mime_type } => RmcpContent::image(data, mime_type),
                })
                .collect(),
        ),
        Err(error) => CallToolResult::error(vec![RmcpContent::text(error.message())]),
    }
}

/// Polls a future inside `catch_unwind`: a panic while polling becomes `Err(payload)`.
struct CatchUnwind<F>(F);

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.0;
        match catch_unwind(AssertUnwindSafe(|| Pin::new(&mut *inner).poll(cx))) {
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(panic) => Poll::Ready(Err(panic)),
        }
    }
}
