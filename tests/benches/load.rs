//! Load: the same trivial tool over real HTTP, on our server and on bare rmcp, in one run.
//!
//! 64 concurrent clients (one keep-alive connection each) call `echo` as fast as they can for a
//! fixed time against three servers on loopback, one after the other:
//!
//! - `wiki-mcp`: the full stack (Host/Origin check, wiki gate, bearer token, rate limiter off,
//!   policy, guest/write checks, the doors' context, panic boundary, timeout, audit line to a
//!   subscriber), stateless, as `serve` runs it;
//! - `rmcp default`: rmcp's documented `#[tool_router]` + `#[tool_handler]`, which builds the
//!   tool router anew for every handler (stateless mode makes a handler per request);
//! - `rmcp static`: the same with the router built once and shared (`Arc`).
//!
//! All three run stateless with JSON replies, so each call is one POST. Reported: calls/s, p50
//! and p99 latency, and the ratios against each bare variant. `cargo bench -p wiki-mcp-tests
//! --bench load` runs 5 s per server (`LOAD_SECONDS` overrides); without `--bench` (a test
//! build) it runs a 0.2 s smoke pass so it cannot rot.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_runtime::http::{Directory, HttpOptions, HttpServer};
use mcp_runtime::prelude::*;
use mcp_runtime::server::{Manager, McpHandler, ServerSettings};
use rmcp::handler::server::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
use serde::Deserialize;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use wiki_mcp::demo::DEMO_USER;
use wiki_mcp::farm::{self, Content};
use wiki_store::{Store, TokenStore};

const CLIENTS: usize = 64;
const TEXT: &str = "hello";

/// Echo the text back.
///
/// The benchmark's trivial tool.
#[mcp_tool(id = "echo", category = "Benchmark")]
pub struct Echo {
    /// The text to echo.
    #[param(raw)]
    text: String,
}

impl Execute for Echo {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(self.text))
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct EchoArgs {
    /// The text to echo.
    text: String,
}

/// rmcp's documented default: the router is rebuilt by `Self::tool_router()` on each use.
#[derive(Debug, Clone, Default)]
struct BareDefault;

#[tool_router]
impl BareDefault {
    #[tool(description = "Echo the text back.")]
    fn echo(&self, Parameters(args): Parameters<EchoArgs>) -> String {
        args.text
    }
}

#[tool_handler]
impl ServerHandler for BareDefault {}

/// The same tool with its router built once and shared.
#[derive(Debug, Clone)]
struct BareStatic {
    router: Arc<ToolRouter<BareStatic>>,
}

#[tool_router]
impl BareStatic {
    #[tool(description = "Echo the text back.")]
    fn echo(&self, Parameters(args): Parameters<EchoArgs>) -> String {
        args.text
    }
}

#[tool_handler(router = self.router)]
impl ServerHandler for BareStatic {}

fn stateless() -> StreamableHttpServerConfig {
    StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
}

/// Serves a bare rmcp handler on loopback with TCP_NODELAY, as our server does.
async fn serve_bare<H>(handler: H, shutdown: CancellationToken) -> String
where
    H: ServerHandler + Clone + Send + Sync + 'static,
{
    use axum::serve::ListenerExt;
    let service = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(NeverSessionManager::default()),
        stateless().with_cancellation_token(shutdown.child_token()),
    );
    let router = axum::Router::new().route_service("/mcp", service);
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}/mcp", listener.local_addr().expect("address"));
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    tokio::spawn(async move {
        let _ = axum::serve(listener, router)
            .with_graceful_shutdown(shutdown.cancelled_owned())
            .await;
    });
    url
}

/// Our server on a demo farm; returns the endpoint and alice's token.
async fn serve_ours(shutdown: CancellationToken, dir: &tempfile::TempDir) -> (String, String) {
    let store = farm::create(dir.path(), Content::Demo).expect("the demo farm");
    let token = store
        .create_token(DEMO_USER, "load")
        .expect("a token")
        .token
        .expose()
        .to_owned();
    let server = HttpServer::bind(
        "127.0.0.1:0",
        HttpOptions {
            rate_limit: None,
            ..HttpOptions::default()
        },
    )
    .await
    .expect("bind");
    let endpoint = format!("{}/rest/wikis/main/aiLLM/mcp", server.base_url());
    let store: Arc<dyn Store> = Arc::new(store);
    let manager = Arc::new(Manager::new(store, ServerSettings::default()).expect("the manager"));
    let handler = McpHandler::new(Arc::clone(&manager));
    tokio::spawn(server.serve(Arc::new(Directory::new(manager)), handler, shutdown));
    (endpoint, token)
}

struct Measured {
    calls: usize,
    elapsed: Duration,
    p50: Duration,
    p99: Duration,
}

impl Measured {
    fn per_second(&self) -> f64 {
        self.calls as f64 / self.elapsed.as_secs_f64()
    }
}

/// One client: calls `echo` in a loop until `deadline`, recording each latency.
async fn client(url: String, token: Option<String>, deadline: Instant) -> Vec<Duration> {
    let http = reqwest::Client::new();
    let mut latencies = Vec::new();
    let mut id = 0u64;
    while Instant::now() < deadline {
        id += 1;
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{TEXT}"}}}}}}"#
        );
        let mut request = http
            .post(&url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .body(body);
        if let Some(token) = &token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let started = Instant::now();
        let response = request.send().await.expect("the server answers");
        assert_eq!(response.status(), 200, "{url}");
        let reply = response.bytes().await.expect("a body");
        latencies.push(started.elapsed());
        if id == 1 {
            let text = String::from_utf8_lossy(&reply);
            assert!(
                text.contains(TEXT) && !text.contains("\"isError\":true"),
                "{url}: {text}"
            );
        }
    }
    latencies
}

async fn load(url: &str, token: Option<&str>, duration: Duration) -> Measured {
    // Warm up: connections open, caches filled.
    let warm = Instant::now() + duration / 5;
    let warmers: Vec<_> = (0..CLIENTS)
        .map(|_| tokio::spawn(client(url.to_owned(), token.map(str::to_owned), warm)))
        .collect();
    for warmer in warmers {
        warmer.await.expect("a warm-up client");
    }
    let started = Instant::now();
    let deadline = started + duration;
    let workers: Vec<_> = (0..CLIENTS)
        .map(|_| tokio::spawn(client(url.to_owned(), token.map(str::to_owned), deadline)))
        .collect();
    let mut latencies = Vec::new();
    for worker in workers {
        latencies.extend(worker.await.expect("a client"));
    }
    let elapsed = started.elapsed();
    latencies.sort_unstable();
    let at = |q: f64| {
        latencies
            .get(((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    Measured {
        calls: latencies.len(),
        elapsed,
        p50: at(0.50),
        p99: at(0.99),
    }
}

fn main() {
    let benching = std::env::args().any(|arg| arg == "--bench");
    let seconds: f64 = std::env::var("LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if benching { 5.0 } else { 0.2 });
    let duration = Duration::from_secs_f64(seconds);
    // Audit lines are formatted as in production, then discarded.
    tracing_subscriber_sink();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let shutdown = CancellationToken::new();
        let dir = tempfile::tempdir().expect("a temp dir");
        let (ours_url, token) = serve_ours(shutdown.clone(), &dir).await;
        let default_url = serve_bare(BareDefault, shutdown.clone()).await;
        let static_url = serve_bare(
            BareStatic {
                router: Arc::new(BareStatic::tool_router()),
            },
            shutdown.clone(),
        )
        .await;

        let rmcp_default = load(&default_url, None, duration).await;
        let rmcp_static = load(&static_url, None, duration).await;
        let ours = load(&ours_url, Some(&token), duration).await;
        shutdown.cancel();

        println!("load: {CLIENTS} concurrent clients, {seconds} s each, tools/call echo over HTTP");
        println!(
            "{:<14} {:>10} {:>10} {:>10}",
            "server", "calls/s", "p50", "p99"
        );
        for (name, m) in [
            ("rmcp default", &rmcp_default),
            ("rmcp static", &rmcp_static),
            ("wiki-mcp", &ours),
        ] {
            println!(
                "{name:<14} {:>10.0} {:>10.2?} {:>10.2?}",
                m.per_second(),
                m.p50,
                m.p99
            );
        }
        println!(
            "wiki-mcp / rmcp default: {:.2}x throughput; wiki-mcp / rmcp static: {:.2}x",
            ours.per_second() / rmcp_default.per_second(),
            ours.per_second() / rmcp_static.per_second()
        );
    });
}

/// Installs a subscriber that formats every event (audit lines included) into a sink.
fn tracing_subscriber_sink() {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::sink)
        .with_env_filter("info,rmcp=warn")
        .try_init();
}
