//! The one public call path of the wiki server: every transport (the rmcp handler, the direct
//! HTTP answer, stdio through the handler) and every test runs a `tools/call` through
//! [`Manager::call`], which builds the caller's context and hands it to the framework's
//! [`mcp_runtime::call::call`]. No other code dispatches a tool.

use std::sync::Arc;

use mcp_runtime::call::{ToolCall, call};
use mcp_runtime::output::guard::fragment;
use rmcp::ErrorData;
use rmcp::model::CallToolResult;
use wiki_store::model::wiki::WikiId;

use super::{Caller, Manager, WikiServer};

impl Manager {
    /// The enabled server of `wiki` for an MCP request, or the JSON-RPC error to answer: an
    /// unknown or disabled wiki is an invalid request (the HTTP transport answers 404 before
    /// that), a server that could not be built an internal error (the cause is logged, never
    /// sent).
    pub async fn endpoint(&self, wiki: &WikiId) -> Result<Arc<WikiServer>, ErrorData> {
        self.server(wiki)
            .await
            .map_err(|error| {
                tracing::error!(wiki = %wiki, %error, "could not build the wiki's MCP server");
                ErrorData::internal_error(
                    "the server could not load this wiki; retry, and tell an administrator if it \
                     persists",
                    None,
                )
            })?
            .filter(|server| server.enabled())
            .ok_or_else(|| {
                ErrorData::invalid_request(format!("no MCP endpoint for wiki \"{wiki}\""), None)
            })
    }

    /// One `tools/call` by `caller` on `server` (the endpoint of the caller's wiki): the caller's
    /// tool list decides what exists, then the framework's middleware runs it with the doors
    /// of this caller attached (parsing, the guest-write refusal, timeout, panic boundary, the
    /// wiki's audit line).
    ///
    /// A name outside the caller's list is a JSON-RPC error (-32602) that lists the tools this
    /// caller can use; a write tool named by the guest says why it is not among them.
    pub async fn call(
        &self,
        server: &Arc<WikiServer>,
        caller: &Caller,
        request: ToolCall,
    ) -> Result<CallToolResult, ErrorData> {
        if server.wiki() != caller.wiki() {
            tracing::error!(
                server = %server.wiki(),
                caller = %caller.wiki(),
                "a call was handed another wiki's server"
            );
            return Err(ErrorData::internal_error(
                "the request's wiki and server do not match",
                None,
            ));
        }
        let tools = server.tools(caller.is_guest());
        if caller.is_guest()
            && tools.get(&request.name).is_none()
            && server.tools(false).get(&request.name).is_some()
        {
            return Err(ErrorData::invalid_params(
                format!(
                    "Tool '{}' changes content, which guests cannot do. Tools you can use \
                     here: {}.",
                    fragment(&request.name),
                    tools.names()
                ),
                None,
            ));
        }
        let ctx = self.context(server, caller);
        call(tools, request, ctx, self.call_settings()).await
    }
}
