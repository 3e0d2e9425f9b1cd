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
//!    (details only in the log), never a JSON-RPC error or a dropped connection. A call whose
//!    token fired (`notifications/cancelled`) before it answered gets the call path's own
//!    cancellation answer, even when the tool returned an error of its own first (its answer to
//!    the stop, racing this one): only a tool's success survives its cancellation.
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

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock as RmcpContent,
    RequestParamsMeta,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use crate::audit::{Audit, AuditRecord, LogAudit, Outcome};
use crate::context::ToolContext;
use crate::elicit::Elicitation;
use crate::output::guard::fragment;
use crate::param::JsonObject;
use crate::reason::ErrorKind;
use crate::signals::{CancellationToken, PeerProgress, ProgressReporter, ProgressSink};
use crate::tool::{ContentBlock, Stop, ToolError, ToolOutput, ToolResult};
use crate::toolset::{ServedTool, ToolSet};

/// The per-call timeout when a server configures none.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// One `tools/call` as a transport received it: the tool's name and its arguments, and the
/// request's signals: its cancellation (the transport cancels it on `notifications/cancelled`
/// or when the client goes away) and, when the request carried a `progressToken`, where its
/// progress goes.
#[derive(Clone)]
#[non_exhaustive]
pub struct ToolCall {
    /// The tool's name, as the client sent it.
    pub name: String,
    /// The arguments (an absent `arguments` member is the empty object).
    pub arguments: JsonObject,
    /// Cancelled by the transport when the request is; never cancelled by default.
    pub cancellation: CancellationToken,
    /// The request's progress sink, when it asked for progress.
    pub progress: Option<Arc<dyn ProgressSink>>,
    /// How the call can ask its client's person a question; unavailable by default.
    pub elicitation: Elicitation,
    /// The request's `_meta` (empty by default): client options a server may read per call,
    /// under its own keys (the wiki server's `wiki-mcp/links`).
    pub meta: JsonObject,
}

impl fmt::Debug for ToolCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolCall")
            .field("name", &self.name)
            .field("arguments", &self.arguments)
            .field("cancelled", &self.cancellation.is_cancelled())
            .field("progress", &self.progress.is_some())
            .field("elicitation", &self.elicitation)
            .field("meta", &self.meta)
            .finish()
    }
}

impl ToolCall {
    /// A call of `name` with `arguments`, never cancelled, without progress.
    pub fn new(name: impl Into<String>, arguments: JsonObject) -> Self {
        Self {
            name: name.into(),
            arguments,
            cancellation: CancellationToken::new(),
            progress: None,
            elicitation: Elicitation::Unavailable,
            meta: JsonObject::new(),
        }
    }

    /// The call stops when `cancellation` is cancelled.
    pub fn with_cancellation(mut self, cancellation: CancellationToken) -> Self {
        self.cancellation = cancellation;
        self
    }

    /// The call's progress goes to `sink`.
    pub fn with_progress(mut self, sink: Arc<dyn ProgressSink>) -> Self {
        self.progress = Some(sink);
        self
    }

    /// The call can ask its client's person through `elicitation`.
    pub fn with_elicitation(mut self, elicitation: Elicitation) -> Self {
        self.elicitation = elicitation;
        self
    }

    /// The request carried `meta` as its `_meta`.
    pub fn with_meta(mut self, meta: JsonObject) -> Self {
        self.meta = meta;
        self
    }

    /// The call of an rmcp request: its name and arguments, its cancellation token, its
    /// progress token (notifications go to the request's peer), how it can ask its person
    /// ([`Elicitation::of_request`]: the protocol and the client's capabilities), and its
    /// `_meta`.
    pub fn from_rmcp(request: CallToolRequestParams, context: &RequestContext<RoleServer>) -> Self {
        // rmcp lifts a request's `_meta` onto its context; a hand-built request keeps it.
        let token = context
            .meta
            .get_progress_token()
            .or_else(|| request.progress_token());
        let elicitation = Elicitation::of_request(&request, context);
        let meta = match request.meta.as_ref() {
            Some(meta) if context.meta.is_empty() => meta.0.0.clone(),
            _ => context.meta.0.0.clone(),
        };
        let call = Self::from(request)
            .with_cancellation(context.ct.clone())
            .with_elicitation(elicitation)
            .with_meta(meta);
        match token {
            Some(token) => {
                call.with_progress(Arc::new(PeerProgress::new(context.peer.clone(), token)))
            }
            None => call,
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
///
/// For a transport that answers protocol 2026-07-28 use [`respond`], which can also answer an
/// input-required result; here a call whose request said it can take one
/// ([`Elicitation::InputRequired`]) gets, instead, an `isError` result saying its client must
/// retry on a transport that carries the question.
pub async fn call(
    tools: &ToolSet,
    request: ToolCall,
    ctx: ToolContext,
    settings: &CallSettings,
) -> Result<CallToolResult, ErrorData> {
    respond(tools, request, ctx, settings)
        .await
        .map(|response| match response {
            CallToolResponse::Complete(result) => result,
            _ => CallToolResult::error(vec![RmcpContent::text(
                "Error: this call needs a person's answer, which this transport cannot carry. \
                 Nothing was done; call the tool over the MCP endpoint.",
            )]),
        })
}

/// [`call`], answering a tool that needs the person's answer first with the input-required
/// result it built (protocol 2026-07-28's multi round-trip request).
pub async fn respond(
    tools: &ToolSet,
    request: ToolCall,
    ctx: ToolContext,
    settings: &CallSettings,
) -> Result<CallToolResponse, ErrorData> {
    let Some(served) = tools.get(&request.name) else {
        return Err(unknown_tool(tools, &request.name));
    };
    let progress = request.progress.clone();
    // The tool's own token: the timeout cancels it without touching the transport's.
    let ctx = ctx
        .with_signals(
            request.cancellation.child_token(),
            ProgressReporter::new(request.progress),
        )
        .with_elicitation(request.elicitation);
    let response = execute_wrapped(served, &ctx, &request.arguments, settings).await;
    // The answer may close the request's stream: the reports queued before it go first.
    if let Some(progress) = progress {
        progress.flushed().await;
    }
    Ok(response)
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
) -> CallToolResponse {
    let started = Instant::now();
    let mut abandoned = Abandoned {
        tool: served.id(),
        ctx,
        audit: &*settings.audit,
        started,
        armed: true,
    };
    let (outcome, result) = match refuse_guest_write(served, ctx) {
        Err(refusal) => (Outcome::Error, Err(refusal)),
        Ok(()) => run(served, ctx, arguments, settings.timeout).await,
    };
    abandoned.armed = false;
    settings.audit.record(&AuditRecord {
        tool: served.id(),
        context: ctx,
        outcome,
        reason: result.as_ref().err().map(ToolError::kind),
        duration: started.elapsed(),
    });
    to_mcp(result)
}

/// A call whose transport dropped it before it ended (hyper drops a request's future when its
/// HTTP client goes away): nothing after the call's `await` runs then, so this guard cancels
/// the call's token (the store work and heavy jobs it started stop) and writes its audit line,
/// `cancelled`, when dropped still armed.
struct Abandoned<'a> {
    tool: &'a str,
    ctx: &'a ToolContext,
    audit: &'a dyn Audit,
    started: Instant,
    armed: bool,
}

impl Drop for Abandoned<'_> {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        self.ctx.cancellation().cancel();
        tracing::info!(
            tool = self.tool,
            user = self.ctx.user_or_guest(),
            "tool call abandoned by its transport"
        );
        self.audit.record(&AuditRecord {
            tool: self.tool,
            context: self.ctx,
            outcome: Outcome::Cancelled,
            reason: Some(ErrorKind::Cancelled),
            duration: self.started.elapsed(),
        });
    }
}

/// Step 2: the guest never runs a write tool.
fn refuse_guest_write(served: ServedTool, ctx: &ToolContext) -> Result<(), ToolError> {
    if ctx.is_guest() && served.writes() {
        Err(ToolError::new(format!(
            "Error: '{}' changes content, which guests cannot do. Connect with an API token \
             (Authorization: Bearer <token>) of a user allowed to edit.",
            served.id()
        ))
        .with_kind(ErrorKind::Forbidden))
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
    let cancellation = ctx.cancellation().clone();
    let started = tokio::time::Instant::now();
    tokio::select! {
        // A tool that finished wins over a signal that fired at the same moment.
        biased;
        finished = CatchUnwind(future) => match finished {
            Ok(Ok(output)) => match checked(served, output) {
                Ok(output) => (Outcome::Ok, Ok(output)),
                Err(error) => (Outcome::Failed, Err(error)),
            },
            // The token fired first: the tool's error is most likely its answer to the stop it
            // was sent (the store's interruption, a refused job slot), returned in the same
            // moment the call path would answer. One answer for every cancelled call, however
            // the race went: the call path's (the tool's own goes to the log). A panic is a bug
            // whenever it happens, and stays one.
            Ok(Err(error)) if cancellation.is_cancelled() => {
                tracing::debug!(tool = id, answer = error.message(), "a cancelled tool's own answer");
                cancelled(served, ctx)
            }
            Ok(Err(error)) => (stopped(&error), Err(error)),
            Err(panic) => (Outcome::Failed, Err(internal_error(id, &*panic))),
        },
        () = cancellation.cancelled() => cancelled(served, ctx),
        () = ctx.clock().expired(started, timeout) => {
            // Tell whatever the tool started (blocking store work, a renderer) to stop.
            cancellation.cancel();
            tracing::warn!(
                tool = id,
                user = ctx.user_or_guest(),
                timeout_s = timeout.as_secs_f64(),
                "tool call timed out"
            );
            let advice = if served.writes() {
                unfinished_write(served)
            } else {
                " Retry with a narrower request (a smaller limit, a more specific query); if it \
                 keeps timing out, tell an administrator."
                    .to_owned()
            };
            (
                Outcome::Timeout,
                Err(ToolError::new(format!(
                    "Error: tool '{id}' did not finish within {} and was cancelled.{advice}",
                    seconds(timeout)
                ))
                .with_kind(ErrorKind::Timeout)),
            )
        }
    }
}

/// The answer to a call whose token fired (`notifications/cancelled`, its client going away)
/// before it answered, whatever the tool did after: the timeout has its own answer.
fn cancelled(served: ServedTool, ctx: &ToolContext) -> (Outcome, ToolResult) {
    let id = served.id();
    tracing::info!(tool = id, user = ctx.user_or_guest(), "tool call cancelled");
    (
        Outcome::Cancelled,
        Err(ToolError::new(format!(
            "Error: the call of '{id}' was cancelled before it finished.{}",
            unfinished_write(served)
        ))
        .with_kind(ErrorKind::Cancelled)),
    )
}

/// What an agent must know when a write tool was stopped: a write already handed to the store
/// commits or not as one transaction, never in part, but the answer cannot say which.
fn unfinished_write(served: ServedTool) -> String {
    if served.writes() {
        " A change it had already handed to the store is saved whole or not at all: check the \
         target (get_document or get_history) before retrying."
            .to_owned()
    } else {
        String::new()
    }
}

/// `output` when its structured content (if any) matches the tool's output schema; otherwise
/// the generic internal error (the departure is logged): a client validates structured content
/// against the advertised schema, so a result that does not match is never sent.
fn checked(served: ServedTool, output: ToolOutput) -> ToolResult {
    let Some(structured) = output.structured_value() else {
        return Ok(output);
    };
    match served.tool.check_output(structured) {
        Ok(()) => Ok(output),
        Err(problem) => {
            tracing::error!(
                tool = served.id(),
                problem,
                "a tool's structured result does not match its output schema; the caller got a \
                 generic error"
            );
            Err(ToolError::new(format!(
                "Internal error in tool '{}': its result did not match its declared output. \
                 Retry the call; if it keeps failing, tell an administrator (the details are in \
                 the server log).",
                served.id()
            ))
            .with_kind(ErrorKind::Internal))
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
    .with_kind(ErrorKind::Internal)
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

/// The audit outcome of a tool's error, returned before its call's token fired: declined and
/// unconfirmed writes and questions for the person are not ordinary errors. (A tool that gave
/// up because its call was cancelled is answered and audited as the call path's cancellation.)
fn stopped(error: &ToolError) -> Outcome {
    match error.stop() {
        Stop::Error => Outcome::Error,
        Stop::Declined => Outcome::Declined,
        Stop::Unconfirmed => Outcome::Unconfirmed,
        Stop::InputRequired(_) => Outcome::InputRequired,
    }
}

/// A tool's result as MCP content (and its `structuredContent`, for a tool declared with
/// `output`); an error is one text block with `isError: true`, never structured content; a
/// question for the person is the input-required result the tool built.
fn to_mcp(result: ToolResult) -> CallToolResponse {
    if let Err(error) = &result
        && let Stop::InputRequired(input) = error.stop()
    {
        return CallToolResponse::InputRequired(*input.0.clone());
    }
    CallToolResponse::Complete(match result {
        Ok(output) => {
            let (content, structured) = output.into_parts();
            let mut result = CallToolResult::success(
                content
                    .into_iter()
                    .map(|block| match block {
                        ContentBlock::Text(text) => RmcpContent::text(text),
                        ContentBlock::Image { data, mime_type } => {
                            RmcpContent::image(data, mime_type)
                        }
                    })
                    .collect(),
            );
            result.structured_content = structured;
            result
        }
        Err(error) => CallToolResult::error(vec![RmcpContent::text(error.message())]),
    })
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
