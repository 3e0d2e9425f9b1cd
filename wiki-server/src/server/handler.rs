//! The rmcp `ServerHandler`: one cheap-to-clone handler for every wiki.
//!
//! Cloning is an `Arc` bump (rmcp's stateless mode makes one handler per request), and every
//! request resolves its own wiki and caller: from the [`Caller`] the HTTP middleware inserted in
//! the request's extensions, or the fixed caller of the stdio transport. Calls run through
//! [`Manager::call`], the path the direct HTTP answer and the tests take too. rmcp sessions are not
//! bound to the URL they were opened on, so nothing here is remembered between requests.
//!
//! `get_info` sees no request, so the per-wiki parts (instructions, server title) are served by
//! overriding `initialize` and `discover` (protocol 2026-07-28), which do.

use std::sync::Arc;

use mcp_runtime::call::ToolCall;
use mcp_runtime::elicit::Elicitation;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, DiscoverResult, GetSkillRequestParams, GetSkillResult,
    Implementation, InitializeRequestParams, InitializeResult, ListResourcesResult,
    ListSkillsResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::manager::{DEFAULT_DESCRIPTION, MAN_HINT};
use super::policy::MAN;
use super::{Caller, Manager, WikiServer};
use crate::http::CancelScope;
use crate::skills;

/// The name the server reports (`serverInfo.name`); the wiki's name is its title.
pub const SERVER_NAME: &str = "wiki-mcp";

/// The MCP handler of every wiki. Clone it freely: clones share one state.
#[derive(Debug, Clone)]
pub struct McpHandler {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    manager: Arc<Manager>,
    fixed_caller: Option<Caller>,
}

impl McpHandler {
    /// A handler that reads the caller of each request from its extensions (HTTP).
    pub fn new(manager: Arc<Manager>) -> Self {
        Self {
            inner: Arc::new(Inner {
                manager,
                fixed_caller: None,
            }),
        }
    }

    /// A handler serving one wiki as one caller (stdio: the process is the session).
    pub fn with_caller(manager: Arc<Manager>, caller: Caller) -> Self {
        Self {
            inner: Arc::new(Inner {
                manager,
                fixed_caller: Some(caller),
            }),
        }
    }

    /// The manager this handler serves from.
    pub fn manager(&self) -> &Arc<Manager> {
        &self.inner.manager
    }

    /// The caller and the wiki's server for this request.
    async fn resolve(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> Result<(Caller, Arc<WikiServer>), ErrorData> {
        let parts = context.extensions.get::<http::request::Parts>();
        let caller = self
            .inner
            .fixed_caller
            .clone()
            .or_else(|| context.extensions.get::<Caller>().cloned())
            .or_else(|| parts.and_then(|parts| parts.extensions.get::<Caller>().cloned()))
            .ok_or_else(|| {
                tracing::error!("an MCP request reached the handler without a caller");
                ErrorData::internal_error("the request has no identified caller", None)
            })?;
        // The HTTP middleware already fetched this request's server; anything else looks it up.
        let admitted = parts
            .and_then(|parts| parts.extensions.get::<Arc<WikiServer>>())
            .filter(|server| server.wiki() == caller.wiki())
            .cloned();
        let server = match admitted {
            Some(server) => server,
            None => self.inner.manager.endpoint(caller.wiki()).await?,
        };
        Ok((caller, server))
    }

    /// The server configuration with this wiki's title and instructions, for a caller who may
    /// view the wiki. Anyone else (the guest on a wiki closed to guests, say) learns nothing of
    /// it from the handshake, as of a wiki it does not know: no title (its name could say what
    /// it is about), and the default description instead of the configured one.
    fn config_for(&self, caller: &Caller, server: &WikiServer) -> ServerConfig {
        let mut config = self.get_info();
        let doors = self.inner.manager.doors(server, caller);
        if doors.can_view_wiki(server.wiki()) {
            config.server_info.title = Some(server.server_name().to_owned());
            config.instructions = Some(server.instructions().to_owned());
        } else if server.tools_for(caller).get(MAN).is_some() {
            config.instructions = Some(format!("{DEFAULT_DESCRIPTION}\n\n{MAN_HINT}"));
        } else {
            config.instructions = Some(DEFAULT_DESCRIPTION.to_owned());
        }
        config
    }
}

impl ServerHandler for McpHandler {
    fn get_info(&self) -> ServerConfig {
        // Skills ride on resources: the skill files are read with `resources/read`.
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_skills()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")))
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        let (caller, server) = self.resolve(&context).await?;
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        let config = self.config_for(&caller, &server);
        result.server_info = config.server_info;
        result.instructions = config.instructions;
        Ok(result)
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let (caller, server) = self.resolve(&context).await?;
        Ok(DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.config_for(&caller, &server),
        ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let (caller, server) = self.resolve(&context).await?;
        Ok(server.list_for(&caller))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let (caller, server) = self.resolve(&context).await?;
        let parts = context.extensions.get::<http::request::Parts>();
        // Over HTTP, an authenticated caller's `notifications/cancelled` POST reaches this call
        // through the in-flight registry while it runs (rmcp's own pool is per request there).
        let _registration = parts
            .and_then(|parts| parts.extensions.get::<CancelScope>())
            .map(|scope| scope.register(context.id.clone(), context.ct.clone()));
        let mut call = ToolCall::from_rmcp(request, &context);
        if parts.is_some() {
            call.elicitation = over_stateless_http(call.elicitation);
        }
        self.inner.manager.respond(&server, &caller, call).await
    }

    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        let (caller, server) = self.resolve(&context).await?;
        skills::list_skills(&self.inner.manager, &server, &caller).await
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        let (caller, server) = self.resolve(&context).await?;
        skills::get_skill(&self.inner.manager, &server, &caller, &request.uri).await
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let (caller, server) = self.resolve(&context).await?;
        skills::list_resources(&self.inner.manager, &server, &caller).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let (caller, server) = self.resolve(&context).await?;
        skills::read_resource(&self.inner.manager, &server, &caller, &request.uri)
            .await
            .map(Into::into)
    }
}

/// How a call that came over HTTP can ask. The endpoint is stateless: rmcp's peer of a request
/// on a protocol before 2026-07-28 lives as long as that one request, and the client's answer,
/// a POST of its own, never reaches it. Such a call cannot ask, and must not wait for an answer
/// that cannot arrive.
fn over_stateless_http(elicitation: Elicitation) -> Elicitation {
    match elicitation {
        Elicitation::Peer(_) => Elicitation::Unreachable,
        other => other,
    }
}
