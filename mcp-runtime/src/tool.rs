//! What a tool author implements and returns: [`Execute`], [`ToolResult`] ([`ToolOutput`] or
//! [`ToolError`]). What it receives is the [`ToolContext`].

use std::future::Future;

use crate::context::ToolContext;
use crate::param::ParamError;

/// What a tool call returns: its output, or an agent-facing error (an `isError` result).
pub type ToolResult = Result<ToolOutput, ToolError>;

/// Runs a tool whose arguments were already parsed by its `#[mcp_tool]` declaration.
///
/// Authors write `async fn execute(self, ctx: &ToolContext) -> ToolResult`; the declared
/// signature keeps the future `Send` so the server can run it on any worker.
#[diagnostic::on_unimplemented(
    message = "the #[mcp_tool] `{Self}` has no `Execute` impl",
    label = "add `impl Execute for {Self} {{ async fn execute(self, ctx: &ToolContext) -> ToolResult {{ .. }} }}`",
    note = "every #[mcp_tool] struct needs an `Execute` impl: it is what runs when the tool is called"
)]
pub trait Execute: Sized + Send {
    /// Run the tool with its parsed arguments.
    fn execute(self, ctx: &ToolContext) -> impl Future<Output = ToolResult> + Send;
}

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

/// A successful tool result: one or more content blocks (normally one text block).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// The blocks, in order.
    pub content: Vec<ContentBlock>,
}

impl ToolOutput {
    /// One text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            content: vec![ContentBlock::Text(text.into())],
        }
    }

    /// One image block.
    pub fn image(data_base64: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self {
            content: vec![ContentBlock::Image {
                data: data_base64.into(),
                mime_type: mime_type.into(),
            }],
        }
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
}

impl ToolError {
    /// An error with an agent-facing message that names the corrective action.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// The message the agent reads.
    pub fn message(&self) -> &str {
        &self.message
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
        Self::new(error.to_string())
    }
}
