//! [`ToolHandler`]: a set of tools served over any rmcp transport, as they are.
//!
//! The glue between a [`ToolSet`] and rmcp's `ServerHandler`, for a server whose tools need
//! nothing but the framework: `tools/list` answers the set's listing (built once), `tools/call`
//! runs through [`call`](crate::call::call), the one path every server's calls take. The caller is fixed when the
//! handler is made (stdio: the process is the session): the guest by default, who is offered
//! no write tool. A server with more to decide per request (who calls, which endpoint, what to
//! attach to the context) implements `ServerHandler` itself around the same [`ToolSet`] and
//! [`call`](crate::call::call), as the wiki server does.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::call::{CallSettings, ToolCall, respond};
use crate::context::ToolContext;
use crate::toolset::ToolSet;

/// An rmcp server handler for one [`ToolSet`] and one caller. Clone it freely: clones share one
/// state.
#[derive(Debug, Clone)]
pub struct ToolHandler {
    inner: Arc<Inner>,
}

#[derive(Debug, Clone)]
struct Inner {
    /// Every tool the handler was given.
    all: ToolSet,
    /// What the caller is offered: `all`, without write tools for the guest.
    offered: ToolSet,
    user: Option<String>,
    info: Implementation,
    instructions: Option<String>,
    settings: CallSettings,
}

impl ToolHandler {
    /// Serves `tools` as `info` (`serverInfo`: name and version) to the guest, with the default
    /// [`CallSettings`].
    pub fn new(tools: ToolSet, info: Implementation) -> Self {
        Self {
            inner: Arc::new(Inner {
                offered: tools.without_writes(),
                all: tools,
                user: None,
                info,
                instructions: None,
                settings: CallSettings::default(),
            }),
        }
    }

    /// Serves the calls as `user` (a caller the process trusts, e.g. the local account of a
    /// stdio server), who is offered the write tools too.
    pub fn with_user(mut self, user: impl Into<String>) -> Self {
        let inner = Arc::make_mut(&mut self.inner);
        inner.user = Some(user.into());
        inner.offered = inner.all.clone();
        self
    }

    /// Sends `instructions` in the initialize result (how an agent should use these tools).
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        Arc::make_mut(&mut self.inner).instructions = Some(instructions.into());
        self
    }

    /// Runs the calls with `settings` (timeout, audit sink).
    pub fn with_settings(mut self, settings: CallSettings) -> Self {
        Arc::make_mut(&mut self.inner).settings = settings;
        self
    }

    /// The tools the caller is offered.
    pub fn tools(&self) -> &ToolSet {
        &self.inner.offered
    }
}

impl ServerHandler for ToolHandler {
    fn get_info(&self) -> ServerConfig {
        let config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(self.inner.info.clone());
        match &self.inner.instructions {
            Some(instructions) => config.with_instructions(instructions.clone()),
            None => config,
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(self.inner.offered.list_result())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let ctx = ToolContext::new(self.inner.user.clone());
        respond(
            &self.inner.offered,
            ToolCall::from_rmcp(request, &context),
            ctx,
            &self.inner.settings,
        )
        .await
    }
}
