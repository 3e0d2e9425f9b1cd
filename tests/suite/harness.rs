//! A real server on `127.0.0.1:0` over a freshly seeded demo farm in a temp dir, and the clients
//! that drive it: rmcp's client for MCP, raw HTTP for status codes and headers.
//!
//! The farm is the one `wiki-mcp` seeds on a first run (`wiki_mcp_cli::farm`), so tests see what
//! users see. The test keeps a handle on the same store to play the admin commands' part.

use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, ElicitationCapability, ErrorData, FormElicitationCapability,
    Implementation,
};
use rmcp::service::{RequestContext, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ServiceExt};
use serde_json::Value;
use tempfile::TempDir;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use wiki_mcp_cli::demo::DEMO_USER;
use wiki_mcp_cli::farm::{self, ADMIN_USER, Content};
use wiki_server::http::{Directory, HttpOptions, HttpServer, REFUSAL_HEADER, Refusal};
use wiki_server::oidc::OidcIdentity;
use wiki_server::{Manager, ServerSettings};
use wiki_store::{AdjustableClock, SqliteStore, Store, StoreConfig, TokenStore};

/// The `Accept` header streamable HTTP requires on POST.
pub(crate) const ACCEPT: &str = "application/json, text/event-stream";

/// The configuration of the farm's stores: the default one on `clock`.
fn store_config(clock: &AdjustableClock) -> StoreConfig {
    StoreConfig {
        clock: clock.clock(),
        ..StoreConfig::default()
    }
}

/// A running server and what a test needs to talk to it.
pub(crate) struct TestServer {
    /// The base URL: `http://127.0.0.1:<port>`, or the public URL when one is configured.
    pub(crate) base: String,
    /// The bound loopback address.
    pub(crate) bound: SocketAddr,
    /// The metrics address, when the options asked for one.
    pub(crate) metrics_bound: Option<SocketAddr>,
    /// The server's store (a clone sharing its pool): changes made here are what an admin
    /// command would make.
    pub(crate) store: SqliteStore,
    /// The data directory, for opening the farm as another process would.
    pub(crate) dir: TempDir,
    /// The host's clock, as the farm's stores (and the links they issue) read it.
    pub(crate) clock: AdjustableClock,
    pub(crate) admin_token: String,
    pub(crate) alice_token: String,
    /// The server's manager: its audit memory ([`Manager::recent_calls`]) says how calls ended.
    pub(crate) manager: Arc<Manager>,
    shutdown: CancellationToken,
    task: Option<JoinHandle<io::Result<()>>>,
}

impl TestServer {
    /// A server with the default options but no rate limits (tests send bursts).
    pub(crate) async fn start() -> Self {
        Self::start_with(HttpOptions {
            rate_limit: None,
            page_rate_limit: None,
            ..HttpOptions::default()
        })
        .await
    }

    pub(crate) async fn start_with(options: HttpOptions) -> Self {
        Self::start_with_oidc(options, None).await
    }

    /// A server like [`TestServer::start`] whose settings `settings` adjusts.
    pub(crate) async fn start_with_settings(
        settings: impl FnOnce(ServerSettings) -> ServerSettings,
    ) -> Self {
        let options = HttpOptions {
            rate_limit: None,
            page_rate_limit: None,
            ..HttpOptions::default()
        };
        Self::start_full(options, None, settings).await
    }

    /// A server that also accepts the OIDC access tokens `oidc` verifies.
    pub(crate) async fn start_with_oidc(
        options: HttpOptions,
        oidc: Option<Arc<OidcIdentity>>,
    ) -> Self {
        Self::start_full(options, oidc, |settings| settings).await
    }

    async fn start_full(
        options: HttpOptions,
        oidc: Option<Arc<OidcIdentity>>,
        settings: impl FnOnce(ServerSettings) -> ServerSettings,
    ) -> Self {
        let dir = tempfile::tempdir().expect("a temp dir");
        let clock = AdjustableClock::new();
        let store = farm::create_with(dir.path(), Content::Demo, store_config(&clock))
            .expect("the demo farm");
        let admin_token = store
            .create_token(ADMIN_USER, "test")
            .expect("an admin token")
            .token
            .expose()
            .to_owned();
        let alice_token = store
            .create_token(DEMO_USER, "test")
            .expect("alice's token")
            .token
            .expose()
            .to_owned();
        let server = HttpServer::bind("127.0.0.1:0", options)
            .await
            .expect("bind 127.0.0.1:0");
        let local = server.local_url().expect("the bound address");
        let bound = server.local_addr().expect("the bound address");
        let metrics_bound = server.metrics_addr().expect("the metrics address");
        let settings = settings(ServerSettings::default().with_public_url(local));
        let base = settings
            .public_url
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        let shared: Arc<dyn Store> = Arc::new(store.clone());
        let manager = Arc::new(Manager::new(shared, settings).expect("the server manager"));
        let shutdown = CancellationToken::new();
        let mut directory = Directory::new(Arc::clone(&manager));
        if let Some(oidc) = oidc {
            directory = directory.with_oidc(oidc);
        }
        let task = tokio::spawn(server.serve(Arc::new(directory), shutdown.clone()));
        TestServer {
            base,
            bound,
            metrics_bound,
            store,
            dir,
            clock,
            admin_token,
            alice_token,
            manager,
            shutdown,
            task: Some(task),
        }
    }

    /// The MCP endpoint of `wiki`.
    pub(crate) fn endpoint(&self, wiki: &str) -> String {
        format!("{}/rest/wikis/{wiki}/aiLLM/mcp", self.base)
    }

    /// An rmcp client connected to `wiki`'s endpoint, as the token's user or the guest.
    pub(crate) async fn client(
        &self,
        wiki: &str,
        token: Option<&str>,
    ) -> RunningService<RoleClient, ()> {
        self.client_with(wiki, token, ()).await
    }

    /// rmcp's client on `wiki`'s endpoint, declaring form elicitation, whose person answers
    /// every question with `action` (`call_tool` answers input-required results through it).
    pub(crate) async fn client_answering(
        &self,
        wiki: &str,
        token: Option<&str>,
        action: ElicitationAction,
    ) -> RunningService<RoleClient, Answering> {
        self.client_with(wiki, token, Answering::new(action)).await
    }

    async fn client_with<C: ClientHandler>(
        &self,
        wiki: &str,
        token: Option<&str>,
        handler: C,
    ) -> RunningService<RoleClient, C> {
        let mut config = StreamableHttpClientTransportConfig::with_uri(self.endpoint(wiki));
        if let Some(token) = token {
            config = config.auth_header(token);
        }
        handler
            .serve(StreamableHttpClientTransport::from_config(config))
            .await
            .expect("the rmcp client connects")
    }

    /// POSTs a JSON-RPC message to `wiki`'s endpoint with the headers a client sends, plus
    /// `extra` headers.
    pub(crate) async fn post(
        &self,
        wiki: &str,
        token: Option<&str>,
        body: &Value,
        extra: &[(&str, &str)],
    ) -> reqwest::Response {
        let mut request = reqwest::Client::new()
            .post(self.endpoint(wiki))
            .header("accept", ACCEPT)
            .header("content-type", "application/json")
            .body(serde_json::to_vec(body).expect("JSON"));
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        for (name, value) in extra {
            request = request.header(*name, *value);
        }
        request.send().await.expect("the server answers")
    }

    /// POSTs `tools/list` to `wiki`'s endpoint as the token's user or the guest: the cheapest
    /// request that passes every gate, so the tests of the gates send it.
    pub(crate) async fn list_tools(&self, wiki: &str, token: Option<&str>) -> reqwest::Response {
        self.post(wiki, token, &tools_list(), &[]).await
    }

    /// How [`list_tools`](Self::list_tools) is answered.
    pub(crate) async fn list_tools_answer(&self, wiki: &str, token: Option<&str>) -> Answer {
        Answer::of(&self.list_tools(wiki, token).await)
    }

    /// A second server on this farm, as another process behind the same load balancer would
    /// be: its own store connection to the same database file, its own manager and listener
    /// (on its own loopback port), the same OIDC sign-in when `oidc` is given.
    pub(crate) async fn replica(&self, oidc: Option<Arc<OidcIdentity>>) -> Replica {
        let store = SqliteStore::open_with(self.dir.path(), store_config(&self.clock))
            .expect("the farm opens again");
        let server = HttpServer::bind(
            "127.0.0.1:0",
            HttpOptions {
                rate_limit: None,
                ..HttpOptions::default()
            },
        )
        .await
        .expect("bind 127.0.0.1:0");
        let local = server.local_url().expect("the bound address");
        let base = local.to_string();
        let shared: Arc<dyn Store> = Arc::new(store);
        let manager = Arc::new(
            Manager::new(shared, ServerSettings::default().with_public_url(local))
                .expect("the replica's manager"),
        );
        let mut directory = Directory::new(Arc::clone(&manager));
        if let Some(oidc) = oidc {
            directory = directory.with_oidc(oidc);
        }
        let shutdown = CancellationToken::new();
        let task = tokio::spawn(server.serve(Arc::new(directory), shutdown.clone()));
        Replica {
            base,
            shutdown,
            _task: task,
        }
    }

    /// Stops the server the way SIGTERM does and waits for it to finish.
    pub(crate) async fn stop(mut self) -> io::Result<()> {
        self.shutdown.cancel();
        match self.task.take() {
            Some(task) => task.await.map_err(io::Error::other)?,
            None => Ok(()),
        }
    }
}

/// Another server on a [`TestServer`]'s farm ([`TestServer::replica`]); stopped on drop.
pub(crate) struct Replica {
    /// Its own base URL: `http://127.0.0.1:<port>`.
    pub(crate) base: String,
    shutdown: CancellationToken,
    _task: JoinHandle<io::Result<()>>,
}

impl Drop for Replica {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

/// Calls `tool` with `arguments` (a JSON object) through an rmcp client, over MCP.
pub(crate) async fn call_tool<C: ClientHandler>(
    client: &RunningService<RoleClient, C>,
    tool: &str,
    arguments: Value,
) -> CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments))
        .await
        .expect("tools/call")
}

/// A client whose person answers every elicitation with the same action, and the questions
/// they were asked.
#[derive(Clone)]
pub(crate) struct Answering {
    action: ElicitationAction,
    asked: Arc<Mutex<Vec<String>>>,
}

impl Answering {
    fn new(action: ElicitationAction) -> Self {
        Self {
            action,
            asked: Arc::default(),
        }
    }

    /// The messages of the questions asked so far, oldest first.
    pub(crate) fn asked(&self) -> Vec<String> {
        self.asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl ClientHandler for Answering {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        if let ElicitRequestParams::FormElicitationParams { message, .. } = request {
            self.asked
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(message);
        }
        Ok(ElicitResult::new(self.action.clone()))
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation =
            Some(ElicitationCapability::new().with_form(FormElicitationCapability::new()));
        ClientConfig::new(capabilities, Implementation::from_build_env())
    }
}

/// The text of a tool result's first content block, if it is text.
pub(crate) fn text_of(result: &CallToolResult) -> Option<String> {
    result
        .content
        .first()
        .and_then(|content| content.as_text())
        .map(|text| text.text.clone())
}

/// How a request was answered: its status and, when it was refused, which refusal (the code in
/// [`REFUSAL_HEADER`]), so a test tells apart refusals that share a status.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) refusal: Option<String>,
}

impl Answer {
    pub(crate) fn of(response: &reqwest::Response) -> Self {
        Answer {
            status: response.status().as_u16(),
            refusal: header(response, REFUSAL_HEADER),
        }
    }

    /// 200, no refusal.
    pub(crate) fn ok() -> Self {
        Answer {
            status: 200,
            refusal: None,
        }
    }

    /// `refusal`'s status and code.
    pub(crate) fn refused(refusal: &Refusal) -> Self {
        Answer {
            status: refusal.status().as_u16(),
            refusal: Some(refusal.code().to_owned()),
        }
    }
}

/// The value of the response header `name`, if present and readable.
pub(crate) fn header(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get(name)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
}

/// A `tools/list` request, as raw JSON-RPC.
pub(crate) fn tools_list() -> Value {
    serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
}

/// The JSON-RPC message of a reply body, plain JSON or the last `data:` line of an SSE stream.
pub(crate) fn message(body: &str) -> Value {
    let json = body
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .rfind(|data| !data.is_empty())
        .unwrap_or(body);
    serde_json::from_str(json).unwrap_or_else(|e| panic!("not JSON-RPC ({e}): {body}"))
}

/// The tool names of a `tools/list` reply.
pub(crate) fn listed(reply: &Value) -> Vec<String> {
    reply["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools: {reply}"))
        .iter()
        .filter_map(|tool| tool["name"].as_str().map(str::to_owned))
        .collect()
}
