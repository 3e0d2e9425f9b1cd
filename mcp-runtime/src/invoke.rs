//! The function every `#[mcp_tool]` declaration's `invoke` pointer points at.
//!
//! Generic over the tool, so the macro emits only `invoke::<Tool>` and all the logic lives here,
//! compiled and tested once. It catches nothing: turning a panic into an error result is the
//! middleware's job, around every tool alike.

use crate::context::ToolContext;
use crate::declaration::{BoxFuture, ToolParams};
use crate::param::JsonObject;
use crate::tool::{Execute, ToolResult};

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
