//! Heavy work of tools (rendering, PDF extraction) in the server's shared heavy slots
//! ([`wiki_tool_sdk::heavy`]: the blocking pool, a few jobs at a time, shared with the signed view
//! page, taken in turn by callers), with the server's busy message as the tool's error.

use wiki_tool_sdk::prelude::*;

/// Runs `job` in one of the process's heavy slots in the turn of the caller of `ctx`, unless
/// its call is cancelled (or times out) first. `what` says what the busy server is doing, for the retry message
/// ("rendering pages").
pub(crate) async fn run_heavy<T, F>(ctx: &ToolContext, what: &str, job: F) -> Result<T, ToolError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    wiki_tool_sdk::heavy::run_heavy(&ctx.heavy_share(), ctx.cancellation(), job)
        .await
        .map_err(|not_run| not_run.tool_error(what))
}
