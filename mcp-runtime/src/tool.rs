//! What a tool author implements and returns: [`Execute`], [`ToolResult`] ([`ToolOutput`],
//! [`Structured`] or [`ToolError`]). What it receives is the [`ToolContext`].

use std::future::Future;

use serde_json::Value;

use crate::context::ToolContext;
use crate::param::{JsonObject, ParamError};
use crate::reason::ErrorKind;

/// What a tool call returns: its output (text by default, [`Structured`] for a tool declared
/// with `output = T`), or an agent-facing error (an `isError` result).
pub type ToolResult<T = ToolOutput> = Result<T, ToolError>;

/// Runs a tool whose arguments were already parsed by its `#[mcp_tool]` declaration.
///
/// A text tool writes `impl Execute for Tool` and returns [`ToolResult`]; a tool declared with
/// `#[mcp_tool(..., output = T)]` writes `impl Execute<Structured<T>> for Tool` and returns
/// `ToolResult<Structured<T>>`, so the value behind its `structuredContent` is a `T`, the type
/// its `outputSchema` was derived from: the two cannot drift. The declared signature keeps the
/// future `Send` so the server can run it on any worker.
// The message names the `Execute<Out>` the declaration requires, so a text impl on a tool
// declared with `output = T` (or the reverse) reads as the mismatch it is (ui-tests pin both).
#[diagnostic::on_unimplemented(
    message = "the #[mcp_tool] `{Self}` has no `Execute<{Out}>` impl, which its declaration calls",
    label = "add `impl Execute<{Out}> for {Self} {{ async fn execute(self, ctx: &ToolContext) -> ToolResult<{Out}> {{ .. }} }}`",
    note = "the declaration says which `Execute` runs the tool: without `output = T` it is `Execute` \
            (returning `ToolResult`); with `output = T` it is `Execute<Structured<T>>` (returning \
            `ToolResult<Structured<T>>`); implement that one, or change the declaration to match \
            the impl you wrote"
)]
pub trait Execute<Out = ToolOutput>: Sized + Send {
    /// Run the tool with its parsed arguments.
    fn execute(self, ctx: &ToolContext) -> impl ToolFuture<Out> + Send;
}

/// What `execute` returns: a future of the tool's result, which is what an `async fn execute`
/// returns. Its own trait (implemented for every such future) so that a plain `fn execute`
/// reads as the missing `async` it is, not as "`Result` is not a future".
#[diagnostic::on_unimplemented(
    message = "`execute` must be an `async fn`: make it `async fn execute(self, ctx: &ToolContext)`",
    label = "not the future of a tool result",
    note = "write `async fn execute(self, ctx: &ToolContext) -> ToolResult {{ .. }}` (or \
            `-> ToolResult<Structured<T>>` for a tool declared with `output = T`): the server \
            awaits every tool, so a tool can wait on I/O without holding a thread"
)]
pub trait ToolFuture<Out>: Future<Output = ToolResult<Out>> {}

impl<F, Out> ToolFuture<Out> for F where F: Future<Output = ToolResult<Out>> {}

/// One block of a tool's output.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContentBlock {
    /// Line-oriented text an agent reads.
    Text(String),
    /// An image, base64-encoded, with its mime type.
    Image {
        /// Base64 data.
        data: String,
        /// e.g. `image/png`.
        mime_type: String,
    },
}

/// A successful tool result: one or more content blocks (normally one text block), and for a
/// tool declared with `output = T` the `structuredContent` serialized from its `T`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// The blocks, in order.
    pub content: Vec<ContentBlock>,
    /// Set only by the framework, from the [`Structured`] value of a tool declared with
    /// `output = T` (so no tool can send structured content its schema does not describe).
    structured: Option<Value>,
}

impl ToolOutput {
    /// These blocks, in order.
    pub fn new(content: Vec<ContentBlock>) -> Self {
        Self {
            content,
            structured: None,
        }
    }

    /// One text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::new(vec![ContentBlock::Text(text.into())])
    }

    /// One image block.
    pub fn image(data_base64: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::new(vec![ContentBlock::Image {
            data: data_base64.into(),
            mime_type: mime_type.into(),
        }])
    }

    /// This output (what models and older clients read) with `value` as its structured
    /// content: what a tool declared with `output = T` returns.
    pub fn structured<T>(self, value: T) -> Structured<T> {
        Structured {
            value,
            content: self,
        }
    }

    /// The structured content, serialized from the tool's declared output type; `None` for a
    /// text tool.
    pub fn structured_content(&self) -> Option<&JsonObject> {
        self.structured.as_ref().and_then(Value::as_object)
    }

    /// The framework's half of [`Structured`]: attaches the serialized value.
    pub(crate) fn with_structured_content(mut self, value: JsonObject) -> Self {
        self.structured = Some(Value::Object(value));
        self
    }

    /// The structured value as it will be sent.
    pub(crate) fn structured_value(&self) -> Option<&Value> {
        self.structured.as_ref()
    }

    /// The content blocks and the structured value, for the transport's result.
    pub(crate) fn into_parts(self) -> (Vec<ContentBlock>, Option<Value>) {
        (self.content, self.structured)
    }
}

/// The result of a tool declared with `#[mcp_tool(..., output = T)]`: its value (sent as
/// `structuredContent`, described by the `outputSchema` derived from `T`) and its content
/// blocks (the text models and clients without structured output read, as a text tool's).
///
/// Build one with [`ToolOutput::structured`] (`ToolOutput::text(text).structured(value)`), or
/// [`Structured::new`] for one text block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Structured<T> {
    /// What becomes `structuredContent`.
    pub value: T,
    /// What becomes `content`.
    pub content: ToolOutput,
}

impl<T> Structured<T> {
    /// `value` with one text block.
    pub fn new(value: T, text: impl Into<String>) -> Self {
        ToolOutput::text(text).structured(value)
    }
}

/// An agent-facing error: its message is exactly what the agent reads in the `isError` result.
///
/// Deliberately NOT `From<E: std::error::Error>`: a blanket conversion would let `?` forward SQL,
/// paths or stack details to agents. Convert from `String`/`&str` or from the runtime's own
/// agent-facing error types, whose messages were written for agents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    message: String,
    kind: ErrorKind,
    stop: Stop,
}

/// Why a call stopped without its tool's work being done, when the reason is not an ordinary
/// error: what the audit says, and for an input-required result, what the client receives.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) enum Stop {
    /// An ordinary agent-facing error.
    #[default]
    Error,
    /// The person asked to confirm the call declined (or dismissed the question).
    Declined,
    /// The call needed a confirmation it did not get: the client cannot ask, or the
    /// confirmation it sent back was forged, replayed, expired or for another call.
    Unconfirmed,
    /// The call must be retried with the person's answer (protocol 2026-07-28).
    InputRequired(InputRequired),
}

/// An input-required result, compared by its wire form.
#[derive(Debug, Clone)]
pub(crate) struct InputRequired(pub(crate) Box<rmcp::model::InputRequiredResult>);

impl PartialEq for InputRequired {
    fn eq(&self, other: &Self) -> bool {
        serde_json::to_value(&*self.0).ok() == serde_json::to_value(&*other.0).ok()
    }
}

impl Eq for InputRequired {}

impl ToolError {
    /// An error with an agent-facing message that names the corrective action, of kind
    /// [`ErrorKind::Other`] until [`ToolError::with_kind`] says which.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            kind: ErrorKind::Other,
            stop: Stop::Error,
        }
    }

    /// The person asked to confirm this call declined: nothing was done, and the audit says
    /// `declined`.
    pub fn declined(message: impl Into<String>) -> Self {
        Self {
            stop: Stop::Declined,
            ..Self::new(message).with_kind(ErrorKind::Forbidden)
        }
    }

    /// The call needed a confirmation it could not get (the client cannot ask, or what it sent
    /// back does not verify): nothing was done, and the audit says `unconfirmed`.
    pub fn unconfirmed(message: impl Into<String>) -> Self {
        Self {
            stop: Stop::Unconfirmed,
            ..Self::new(message).with_kind(ErrorKind::Forbidden)
        }
    }

    /// Not an error: the call answers `result` (protocol 2026-07-28's input-required result)
    /// and the client retries it with the person's answer. Only a call whose
    /// [`Elicitation`](crate::elicit::Elicitation) is `InputRequired` may end so.
    pub fn input_required(result: rmcp::model::InputRequiredResult) -> Self {
        Self {
            stop: Stop::InputRequired(InputRequired(Box::new(result))),
            ..Self::new("This call needs the answer to a question before it can run.")
        }
    }

    /// The same error, categorized as `kind` for the audit line (the agent never sees it).
    #[must_use]
    pub fn with_kind(mut self, kind: ErrorKind) -> Self {
        self.kind = kind;
        self
    }

    /// The message the agent reads.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Its category: the audit line's `reason`.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// How the call stopped, for the audit outcome and the input-required answer.
    pub(crate) fn stop(&self) -> &Stop {
        &self.stop
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<String> for ToolError {
    fn from(message: String) -> Self {
        Self::new(message)
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> Self {
        Self::new(message)
    }
}

impl From<ParamError> for ToolError {
    fn from(error: ParamError) -> Self {
        Self::new(error.to_string()).with_kind(ErrorKind::BadArgument)
    }
}
