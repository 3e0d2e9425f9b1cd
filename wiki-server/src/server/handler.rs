//! The rmcp `ServerHandler`: one cheap-to-clone handler for every wiki.
//!
//! Cloning is an `Arc` bump (rmcp's stateless mode makes one handler per request), and every
//! request resolves its own wiki and caller: from the [`Caller`] the HTTP middleware inserted in
//! the request's extensions, or the fixed caller of the stdio transport. Calls run through
//! [`Manager::call`], the path the direct HTTP answer and the tests take too. rmcp sessions are not
//! bound to the URL they were opened on, so nothing here is remembered between requests.
//!
//! Over HTTP the handler announces tool-list and skill changes (`crate::http::ListChanges`): it
//! advertises `tools.listChanged` and `resources.listChanged` (the skills' `SKILL.md` files are
//! its resources), gives `tools/list` a real `ttlMs`, and serves `subscriptions/listen`. Over
//! stdio it does not, and says so (no `listChanged`, `ttlMs` 0).
//!
//! `get_info` sees no request, so the per-wiki parts (instructions, server title) are served by
//! overriding `initialize` and `discover` (protocol 2026-07-28), which do.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ConnectInfo;

use mcp_runtime::call::ToolCall;
use mcp_runtime::elicit::Elicitation;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, DiscoverResult, GetSkillRequestParams,
    GetSkillResult, Implementation, InitializeRequestParams, InitializeResult, ListResourcesResult,
    ListSkillsResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerConfig, SubscriptionFilter,
};
use rmcp::service::RequestContext;
use rmcp::service::SubscriptionContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::manager::{DEFAULT_DESCRIPTION, MAN_HINT};
use super::policy::MAN;
use super::{Caller, Manager, WikiServer};
use crate::http::{
    AskingSession, CancelScope, Credentials, Heard, LIST_TTL, ListChanges, Topics, credentials,
};
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
    /// Where tool-list changes are heard, when this transport announces them.
    list_changes: Option<Arc<ListChanges>>,
}

impl McpHandler {
    /// A handler that reads the caller of each request from its extensions (HTTP).
    pub fn new(manager: Arc<Manager>) -> Self {
        Self {
            inner: Arc::new(Inner {
                manager,
                fixed_caller: None,
                list_changes: None,
            }),
        }
    }

    /// A handler like [`McpHandler::new`] that announces tool-list changes heard by
    /// `list_changes`.
    pub(crate) fn announcing(manager: Arc<Manager>, list_changes: Arc<ListChanges>) -> Self {
        Self {
            inner: Arc::new(Inner {
                manager,
                fixed_caller: None,
                list_changes: Some(list_changes),
            }),
        }
    }

    /// A handler serving one wiki as one caller (stdio: the process is the session).
    pub fn with_caller(manager: Arc<Manager>, caller: Caller) -> Self {
        Self {
            inner: Arc::new(Inner {
                manager,
                fixed_caller: Some(caller),
                list_changes: None,
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
            .enable_skills();
        let capabilities = if self.inner.list_changes.is_some() {
            capabilities
                .enable_tool_list_changed()
                .enable_resources_list_changed()
                .build()
        } else {
            capabilities.build()
        };
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
        let list = server.list_for(&caller);
        // Every list may differ by caller (the guest's, a scoped token's, a narrowed session's).
        let list = list.with_cache_scope(CacheScope::Private);
        Ok(match self.inner.list_changes {
            Some(_) => list.with_ttl_ms(millis(LIST_TTL)),
            None => list.with_ttl_ms(0),
        })
    }

    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.inner.list_changes.as_ref().map(|_| {
            SubscriptionFilter::builder()
                .tools_list_changed()
                .resources_list_changed()
                .build()
        })
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let Some(list_changes) = &self.inner.list_changes else {
            context.cancelled().await;
            return Ok(());
        };
        let request = context.request_context();
        let (caller, _) = self.resolve(request).await?;
        let parts = request.extensions.get::<http::request::Parts>();
        let token = parts.and_then(|parts| match credentials(&parts.headers) {
            Credentials::Bearer(token) => Some(token),
            Credentials::None | Credentials::Unusable => None,
        });
        let key = match caller.user_name() {
            Some(user) => format!("user:{user}"),
            None => format!(
                "guest:{}",
                parts
                    .and_then(|parts| parts.extensions.get::<ConnectInfo<SocketAddr>>())
                    .map_or_else(String::new, |info| info.0.ip().to_string())
            ),
        };
        let accepted = context.accepted();
        let topics = Topics {
            tools: accepted.tools_list_changed == Some(true),
            skills: accepted.resources_list_changed == Some(true),
        };
        let mut listener = list_changes
            .open(caller, token, key, topics)
            .await
            .map_err(|too_many| ErrorData::invalid_request(too_many.text(), None))?;
        loop {
            let heard = tokio::select! {
                () = context.cancelled() => return Ok(()),
                heard = listener.next() => heard,
            };
            match heard {
                Heard::Changed(changed) => {
                    let sink = context.sink();
                    if changed.tools && sink.notify_tool_list_changed().await.is_err() {
                        return Ok(());
                    }
                    if changed.skills && sink.notify_resource_list_changed().await.is_err() {
                        return Ok(());
                    }
                }
                // rmcp keeps the stream alive itself.
                Heard::Idle => {}
                Heard::ShuttingDown => return Ok(()),
                Heard::NotAdmitted => {
                    return Err(ErrorData::invalid_request(
                        "this subscription's credentials are no longer accepted (the token was \
                         revoked or expired, the user removed, or the wiki disabled): \
                         authenticate again, re-list the tools and listen anew",
                        None,
                    ));
                }
            }
        }
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
        if let Some(parts) = parts {
            let session = AskingSession::of_request(&parts.headers).is_some();
            call.elicitation = over_stateless_http(call.elicitation, session);
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

/// How a call that came over HTTP to rmcp's handler can ask. The endpoint is stateless: rmcp's
/// peer of a request on a protocol before 2026-07-28 lives as long as that one request, and the
/// client's answer, a POST of its own, never reaches it. Only the direct answer carries a
/// question (`http/answers.rs`); a call that came here instead, declaring elicitation in its
/// own request or in the handshake of its asking session (`in_session`), cannot ask, and must
/// not wait for an answer that cannot arrive.
fn over_stateless_http(elicitation: Elicitation, in_session: bool) -> Elicitation {
    match elicitation {
        Elicitation::Peer(_) => Elicitation::Unreachable,
        Elicitation::Unavailable if in_session => Elicitation::Unreachable,
        other => other,
    }
}

/// `duration` in whole milliseconds, as `ttlMs` counts.
fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
