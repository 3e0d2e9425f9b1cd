//! The one public call path of the wiki server: every transport (the rmcp handler, the direct
//! HTTP answer, stdio through the handler) and every test runs a `tools/call` through
//! [`Manager::call`], which builds the caller's context and hands it to the framework's
//! [`mcp_runtime::call::call`]. No other code dispatches a tool.

use std::borrow::Cow;
use std::sync::Arc;

use mcp_runtime::call::{ToolCall, call, respond};
use mcp_runtime::output::guard::fragment;
use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, CallToolResult};
use wiki_store::model::wiki::WikiId;

use mcp_runtime::ToolContext;
use mcp_runtime::toolset::ToolSet;

use super::{CallOrigin, Caller, Manager, TraceParent, WikiServer};
use crate::confirm::{Asking, Confirmation};
use wiki_tool_sdk::serving::WikiCall;

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
    /// wiki's audit line), and its result is shown as untrusted text ([`wiki_tool_sdk::untrusted`]:
    /// invisible characters as visible escapes).
    ///
    /// A name outside the caller's list is a JSON-RPC error (-32602) that lists the tools this
    /// caller can use; a write tool named by the guest says why it is not among them.
    ///
    /// A call whose request can take an input-required result (protocol 2026-07-28) goes
    /// through [`Manager::respond`]; here it answers as [`mcp_runtime::call::call`] says.
    pub async fn call(
        &self,
        server: &Arc<WikiServer>,
        caller: &Caller,
        request: ToolCall,
    ) -> Result<CallToolResult, ErrorData> {
        let (tools, ctx) = self.prepare(server, caller, &request)?;
        let mut result = call(&tools, request, ctx, self.call_settings()).await?;
        super::shown::show(&mut result);
        Ok(result)
    }

    /// [`Manager::call`] for a transport that answers input-required results (the rmcp
    /// handler): a write that must be confirmed on a protocol 2026-07-28 call answers the
    /// question, and runs on the retry that carries the person's yes ([`crate::confirm`]).
    pub async fn respond(
        &self,
        server: &Arc<WikiServer>,
        caller: &Caller,
        request: ToolCall,
    ) -> Result<CallToolResponse, ErrorData> {
        let (tools, ctx) = self.prepare(server, caller, &request)?;
        let mut response = respond(&tools, request, ctx, self.call_settings()).await?;
        if let CallToolResponse::Complete(result) = &mut response {
            super::shown::show(result);
        }
        Ok(response)
    }

    /// The caller's tools and the call's context (with the write confirmation it needs), or
    /// the JSON-RPC error to answer.
    ///
    /// A tool the wiki serves but the caller's narrowing leaves out is refused with the reason
    /// the narrowing gives (which limit, and how to get past it), not as an unknown tool.
    fn prepare<'s>(
        &self,
        server: &'s Arc<WikiServer>,
        caller: &Caller,
        request: &ToolCall,
    ) -> Result<(Cow<'s, ToolSet>, ToolContext), ErrorData> {
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
        let kind = server.tools(caller.is_guest());
        if caller.is_guest()
            && kind.get(&request.name).is_none()
            && server.tools(false).get(&request.name).is_some()
        {
            return Err(ErrorData::invalid_params(
                format!(
                    "Tool '{}' changes content, which guests cannot do. Tools you can use \
                     here: {}.",
                    fragment(&request.name),
                    server.tools_for(caller).names()
                ),
                None,
            ));
        }
        let tools = server.tools_for(caller);
        if let (Some(narrowing), Some(served)) = (caller.narrowing(), kind.get(&request.name))
            && let Some(refusal) = narrowing.refusal(served)
        {
            return Err(ErrorData::invalid_params(
                format!("{refusal} Tools you can use here: {}.", tools.names()),
                None,
            ));
        }
        let links = server.links() || links_asked(request);
        let mut ctx = self.context(server, caller, links);
        // The call's own trace (its `_meta`) comes before its HTTP request's.
        if let Some(parent) = TraceParent::from_meta(&request.meta)
            && let Some(origin) = ctx.extensions_mut().get_mut::<CallOrigin>()
        {
            origin.trace_parent = Some(parent);
        }
        self.attach_confirmation(server, &tools, caller, request, &mut ctx);
        Ok((tools, ctx))
    }

    /// Gives the call's doors the [`Confirmation`] its writes need, for a write tool declared
    /// `confirm` or on a wiki with `confirm_writes=true`. `tools` is the caller's set
    /// [`Manager::prepare`] already chose.
    fn attach_confirmation(
        &self,
        server: &WikiServer,
        tools: &ToolSet,
        caller: &Caller,
        request: &ToolCall,
        ctx: &mut ToolContext,
    ) {
        let Some(served) = tools.get(&request.name) else {
            return;
        };
        let declaration = served.tool.declaration();
        let Some(user) = caller.user_name().filter(|_| declaration.write) else {
            return;
        };
        let confirmation = Confirmation::new(Asking {
            tool: declaration.id,
            always: declaration.confirm,
            required: server.confirm_writes(),
            user,
            wiki: server.wiki().as_str(),
            request,
            timeout: self.settings().call_timeout,
            link_key: self.link_key().as_deref(),
            ttl: self.settings().confirmation_ttl,
            store: Arc::clone(self.store()),
        });
        if let (Some(confirmation), Some(call)) =
            (confirmation, ctx.extensions_mut().get_mut::<WikiCall>())
        {
            call.confirming(Arc::new(confirmation));
        }
    }
}

/// The `_meta` key by which one call asks for signed links in tool output on a wiki that has
/// them off (`"wiki-mcp/links": true`), for a client that shows them to a person.
pub const LINKS_META_KEY: &str = "wiki-mcp/links";

/// Whether `request` asks for links ([`LINKS_META_KEY`] set to `true`).
fn links_asked(request: &ToolCall) -> bool {
    request
        .meta
        .get(LINKS_META_KEY)
        .and_then(serde_json::Value::as_bool)
        == Some(true)
}
