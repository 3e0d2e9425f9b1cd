//! [`call`]: the one way a tool runs, free of any transport.
//!
//! Every transport (an rmcp handler, a direct HTTP answer, stdio) and every test hands its
//! `tools/call` here as a [`ToolCall`], with the caller's [`ToolSet`] and the
//! [`ToolContext`] its server built, so no path runs a tool any other way. The steps:
//!
//! 1. **Look up** the name in the caller's set: a tool outside it is a JSON-RPC error (-32602)
//!    listing the tools the caller can use, since no tool ran.
//! 2. **Refuse guest writes**: a guest's set has no write tool, and a guest calling one anyway
//!    (a set built without that filter) is refused here a second time (defence in depth).
//! 3. **Parse and run**: the declaration's `invoke` parses the arguments (a bad argument is an
//!    `isError` result with the parameter's message) and runs the tool, under the per-call
//!    timeout and inside a panic boundary that covers both creating and polling the future.
//! 4. **Normalize**: a panic or a timeout becomes a generic `isError` result that leaks nothing
//!    (details only in the log), never a JSON-RPC error or a dropped connection.
//! 5. **Audit**: one record per call that reached step 2 ([`crate::audit`]), never the
//!    arguments.
//!
//! What a request brings besides its name and arguments (a progress token, a cancellation
//! signal) belongs on [`ToolCall`], which the transport fills; what the server decides for
//! every call (the timeout, the audit sink) on [`CallSettings`].

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use rmcp::ErrorData;
use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock as RmcpContent};

use crate::audit::{Audit, AuditRecord, LogAudit, Outcome};
use crate::context::ToolContext;
use crate::output::guard::fragment;
use crate::param::JsonObject;
use crate::tool::{ContentBlock, ToolError, ToolOutput, ToolResult};
use crate::toolset::{ServedTool, ToolSet};

/// The per-call timeout when a server configures none.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// One `tools/call` as a transport received it: the tool's name and its arguments.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolCall {
    /// The tool's name, as the client sent it.
    pub name: String,
    /// The arguments (an absent `arguments` member is the empty object).
    pub arguments: JsonObject,
}

impl ToolCall {
    /// A call of `name` with `arguments`.
    pub fn new(name: impl Into<String>, arguments: JsonObject) -> Self {
        Self {
            name: name.into(),
            arguments,
        }
    }
}

impl From<CallToolRequestParams> for ToolCall {
    fn from(request: CallToolRequestParams) -> Self {
        Self::new(request.name, request.arguments.unwrap_or_default())
    }
}

/// What a server decides for every call it runs: how long a call may take, and where the audit
/// records go.
#[derive(Clone)]
pub struct CallSettings {
    timeout: Duration,
    audit: Arc<dyn Audit>,
}

impl Default for CallSettings {
    /// [`DEFAULT_CALL_TIMEOUT`] and the framework's [`LogAudit`].
    fn default() -> Self {
        Self {
            timeout: DEFAULT_CALL_TIMEOUT,
            audit: Arc::new(LogAudit),
        }
    }
}

impl fmt::Debug for CallSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallSettings")
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl CallSettings {
    /// Sets how long one call may run before it ends in an `isError` result.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Sends the audit records to `audit` instead of [`LogAudit`].
    pub fn with_audit(mut self, audit: impl Audit) -> Self {
        self.audit = Arc::new(audit);
        self
    }

    /// How long one call may run.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }
}

/// Runs `request` for the caller of `ctx`, among the tools of `tools` (what this caller may
/// use): the tool's output, or an `isError` result for every failure of the tool, internal ones
/// included. `Err` (a JSON-RPC error) only when no such tool is in `tools`.
pub async fn call(
    tools: &ToolSet,
    request: ToolCall,
    ctx: ToolContext,
    settings: &CallSettings,
) -> Result<CallToolResult, ErrorData> {
    let Some(served) = tools.get(&request.name) else {
        return Err(unknown_tool(tools, &request.name));
    };
    Ok(execute_wrapped(served, &ctx, &request.arguments, settings).await)
}

/// The refusal of a name outside the caller's set, listing what the caller can use.
fn unknown_tool(tools: &ToolSet, name: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!(
            "Unknown tool '{}'. Tools you can use here: {}.",
            fragment(name),
            tools.names()
        ),
        None,
    )
}

/// Steps 2 to 5 for a tool the caller may use.
async fn execute_wrapped(
    served: ServedTool,
    ctx: &ToolContext,
    arguments: &JsonObject,
    settings: &CallSettings,
) -> CallToolResult {
    let started = Instant::now();
    let (outcome, result) = match refuse_guest_write(served, ctx) {
        Err(refusal) => (Outcome::Error, Err(refusal)),
        Ok(()) => run(served, ctx, arguments, settings.timeout).await,
    };
    settings.audit.record(&AuditRecord {
        tool: served.id(),
        context: ctx,
        outcome,
        duration: started.elapsed(),
    });
    to_mcp(result)
}

/// Step 2: the guest never runs a write tool.
fn refuse_guest_write(served: ServedTool, ctx: &ToolContext) -> Result<(), ToolError> {
    if ctx.is_guest() && served.writes() {
        Err(ToolError::new(format!(
            "Error: '{}' changes content, which guests cannot do. Connect with an API token \
             (Authorization: Bearer <token>) of a user allowed to edit.",
            served.id()
        )))
    } else {
        Ok(())
    }
}

/// Steps 3 and 4: parse and run under the timeout and the panic boundary.
async fn run(
    served: ServedTool,
    ctx: &ToolContext,
    arguments: &JsonObject,
    timeout: Duration,
) -> (Outcome, ToolResult) {
    let id = served.id();
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
            tracing::warn!(
                tool = id,
                user = ctx.user_or_guest(),
                timeout_s = timeout.as_secs_f64(),
                "tool call timed out"
            );
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
        panic = panic_message(panic),
        "tool panicked; the caller got a generic error"
    );
    ToolError::new(format!(
        "Internal error in tool '{id}'. Retry the call; if it keeps failing, tell an \
         administrator (the details are in the server log)."
    ))
}

/// The text of a panic payload, for logs.
pub fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a non-text panic payload")
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
