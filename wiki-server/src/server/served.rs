//! The server's own extension of a call's context: the wiki's server, for the built-in tools
//! that describe it (`man`). Tools of other crates read the wiki side of the context
//! ([`wiki_tool_sdk::WikiContext`]) and never this.

use std::borrow::Cow;
use std::sync::Arc;

use mcp_runtime::ToolSet;
use mcp_runtime::prelude::ToolContext;

use super::{Caller, WikiServer};

/// The server of the wiki whose endpoint received the call and the caller it serves, attached
/// beside the SDK's [`wiki_tool_sdk::serving::WikiCall`] by [`crate::Manager::call`].
#[derive(Debug, Clone)]
pub(crate) struct ServedBy {
    pub(crate) server: Arc<WikiServer>,
    pub(crate) caller: Caller,
}

/// The tools this caller can use on this wiki (what `man` lists), when served.
pub(crate) fn served_tools(ctx: &ToolContext) -> Option<Cow<'_, ToolSet>> {
    ctx.extension::<ServedBy>()
        .map(|served| served.server.tools_for(&served.caller))
}

/// Whether the wiki of this call confirms every write (`confirm_writes`).
pub(crate) fn confirms_writes(ctx: &ToolContext) -> bool {
    served_by(ctx).is_some_and(|server| server.confirm_writes())
}

fn served_by(ctx: &ToolContext) -> Option<&WikiServer> {
    ctx.extension::<ServedBy>().map(|served| &*served.server)
}
