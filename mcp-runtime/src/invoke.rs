//! The function every `#[mcp_tool]` declaration's `invoke` pointer points at.
//!
//! Generic over the tool, so the macro emits only `invoke::<Tool>` and all the logic lives here,
//! compiled and tested once. It catches nothing: turning a panic into an error result is the
//! middleware's job, around every tool alike.

use crate::context::ToolContext;
use crate::declaration::{BoxFuture, ToolParams};
use crate::param::JsonObject;
use crate::reason::ErrorKind;
use crate::structured::{OutputType, to_structured_content};
use crate::tool::{Execute, Structured, ToolError, ToolResult};

/// Parses `args` into `T` (a parse error becomes the agent-facing error result) and runs it.
pub fn invoke<'a, T>(ctx: &'a ToolContext, args: &'a JsonObject) -> BoxFuture<'a, ToolResult>
where
    T: ToolParams + Execute,
{
    Box::pin(async move {
        let params = T::parse_args(args)?;
        params.execute(ctx).await
    })
}

/// [`invoke`] for a tool declared with `output = O`: runs it, then serializes its `O` into the
/// output's structured content. A value that cannot be serialized as an object (a serializer
/// error, a map with non-string keys) is an internal error: logged, never sent.
pub fn invoke_structured<'a, T, O>(
    ctx: &'a ToolContext,
    args: &'a JsonObject,
) -> BoxFuture<'a, ToolResult>
where
    T: ToolParams + Execute<Structured<O>>,
    O: OutputType,
{
    Box::pin(async move {
        let params = T::parse_args(args)?;
        let Structured { value, content } = params.execute(ctx).await?;
        match to_structured_content(&value) {
            Ok(object) => Ok(content.with_structured_content(object)),
            Err(problem) => {
                tracing::error!(
                    output = std::any::type_name::<O>(),
                    problem,
                    "a tool's structured output could not be serialized"
                );
                Err(ToolError::new(
                    "Internal error: the tool's result could not be encoded. Retry the call; if \
                     it keeps failing, tell an administrator (the details are in the server log).",
                )
                .with_kind(ErrorKind::Internal))
            }
        }
    })
}
