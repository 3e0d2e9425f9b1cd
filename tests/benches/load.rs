//! Load: the same trivial tool over real HTTP, on our server and on bare rmcp, in one run.
//!
//! 64 concurrent clients (one keep-alive connection each) call `echo` as fast as they can for a
//! fixed time against three servers on loopback, one after the other:
//!
//! - `wiki-mcp`: the full stack (Host/Origin check, wiki gate, bearer token, rate limiter off,
//!   policy, guest/write checks, the doors' context, panic boundary, timeout, one audit line per
//!   call written to a log file by `serve`'s own subscriber), stateless, as `serve` runs it;
//! - `wiki-mcp via rmcp`: the same with the direct `tools/call` answer turned off, so every call
//!   goes through rmcp's per-request service (what the direct path saves);
//! - `rmcp default`: rmcp's documented `#[tool_router]` + `#[tool_handler]`, which builds the
//!   tool router anew for every handler (stateless mode makes a handler per request);
//! - `rmcp static`: the same with the router built once and shared (`Arc`).
//!
//! No call carries a `progressToken`: this is the no-progress baseline that progress support
//! must stay within 5% of (a call without a token gets a reporter that holds nothing, so
//! a tool's progress reports cost a branch). All run stateless with JSON replies, so each call
//! is one POST; the clients run in the same
//! process (a reqwest client per connection, the URL parsed once). Reported: calls/s, p50 and
//! p99 latency, and the ratios against each bare variant. Then, when `wrk` is installed, the same
//! servers again under `wrk` in another process (one thread, 64 connections; `support/wrk.rs`),
//! which leaves the servers the CPU the in-process clients take. `cargo bench -p wiki-mcp-tests
//! --bench load` runs 5 s per server and client (`LOAD_SECONDS` overrides; `LOAD_ONLY=wiki-mcp`
//! measures that server alone, for a profiler's `perf record --delay`, and prints no ratio); without `--bench` (a test build) it runs a 0.2 s
//! smoke pass of the in-process clients so it cannot rot.

#[path = "support/measured.rs"]
mod measured;
#[path = "support/wrk.rs"]
mod wrk;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

// Linked for its tools, as in the stock binary `serve` runs.
use bundled_tools as _;
use mcp_runtime::prelude::*;
use rmcp::handler::server::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
use serde::Deserialize;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use wiki_mcp_cli::demo::DEMO_USER;
use wiki_mcp_cli::farm::{self, Content};
use wiki_mcp_cli::logging::{self, LogGuard, LogOptions};
use wiki_server::http::{Directory, HttpOptions, HttpServer};
use wiki_server::{Manager, ServerSettings};
use wiki_store::{Store, TokenStore};

use crate::measured::Measured;

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
async fn serve_ours(
    shutdown: CancellationToken,
    dir: &Path,
    direct_tool_calls: bool,
) -> (String, String) {
    let store = farm::create(dir, Content::Demo).expect("the demo farm");
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
            direct_tool_calls,
            ..HttpOptions::default()
        },
    )
    .await
    .expect("bind");
    let endpoint = format!(
        "{}/rest/wikis/main/aiLLM/mcp",
        server.local_url().expect("the bound address")
    );
    let store: Arc<dyn Store> = Arc::new(store);
    let manager = Arc::new(Manager::new(store, ServerSettings::default()).expect("the manager"));
    tokio::spawn(server.serve(Arc::new(Directory::new(manager)), shutdown));
    (endpoint, token)
}

/// One client: calls `echo` in a loop until `deadline`, recording each latency.
async fn client(url: reqwest::Url, token: Option<String>, deadline: Instant) -> Vec<Duration> {
    let http = reqwest::Client::new();
    let authorization = token.map(|token| format!("Bearer {token}"));
    let mut latencies = Vec::new();
    let mut id = 0u64;
    while Instant::now() < deadline {
        id += 1;
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{TEXT}"}}}}}}"#
        );
        let mut request = http
            .post(url.clone())
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .body(body);
        if let Some(authorization) = &authorization {
            request = request.header("authorization", authorization);
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
    let url = reqwest::Url::parse(url).expect("a URL");
    // Warm up: connections open, caches filled.
    let warm = Instant::now() + duration / 5;
    let warmers: Vec<_> = (0..CLIENTS)
        .map(|_| tokio::spawn(client(url.clone(), token.map(str::to_owned), warm)))
        .collect();
    for warmer in warmers {
        warmer.await.expect("a warm-up client");
    }
    let started = Instant::now();
    let deadline = started + duration;
    let workers: Vec<_> = (0..CLIENTS)
        .map(|_| tokio::spawn(client(url.clone(), token.map(str::to_owned), deadline)))
        .collect();
    let mut latencies = Vec::new();
    for worker in workers {
        latencies.extend(worker.await.expect("a client"));
    }
    Measured::new(latencies, started.elapsed())
}

fn main() {
    let benching = std::env::args().any(|arg| arg == "--bench");
    let seconds: f64 = std::env::var("LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if benching { 5.0 } else { 0.2 });
    let duration = Duration::from_secs_f64(seconds);
    let dir = tempfile::tempdir().expect("a temp dir");
    // `serve`'s own subscriber and writer: every audit line is formatted and written to a file.
    let _log = production_logging(dir.path());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let shutdown = CancellationToken::new();
        let direct = dir.path().join("direct");
        let via_rmcp = dir.path().join("via-rmcp");
        let (ours_url, token) = serve_ours(shutdown.clone(), &direct, true).await;
        let (via_rmcp_url, via_rmcp_token) = serve_ours(shutdown.clone(), &via_rmcp, false).await;
        let default_url = serve_bare(BareDefault, shutdown.clone()).await;
        let static_url = serve_bare(
            BareStatic {
                router: Arc::new(BareStatic::tool_router()),
            },
            shutdown.clone(),
        )
        .await;
        let servers = [
            ("rmcp default", default_url.as_str(), None),
            ("rmcp static", static_url.as_str(), None),
            ("wiki-mcp", ours_url.as_str(), Some(token.as_str())),
            (
                "wiki-mcp via rmcp",
                via_rmcp_url.as_str(),
                Some(via_rmcp_token.as_str()),
            ),
        ];
        let only = std::env::var("LOAD_ONLY").ok();
        if let Some(only) = &only {
            let names: Vec<&str> = servers.iter().map(|(name, _, _)| *name).collect();
            assert!(
                names.contains(&only.as_str()),
                "LOAD_ONLY={only} names no server; the servers: {names:?}"
            );
        }
        let measured_here = |name: &str| only.as_deref().is_none_or(|only| only == name);
        let mut measured: Vec<Measured> = servers.iter().map(|_| Measured::default()).collect();
        for index in rounds(servers.len()).filter(|&index| measured_here(servers[index].0)) {
            let (_, url, token) = servers[index];
            measured[index].add(load(url, token, duration / 2).await);
        }
        // The same servers under `wrk`, a client in another process (see `support/wrk.rs`).
        let wrk_totals = if benching && wrk::available() {
            let script = wrk::write_script(dir.path());
            let mut totals: Vec<wrk::WrkTotal> =
                servers.iter().map(|_| wrk::WrkTotal::default()).collect();
            for index in rounds(servers.len()).filter(|&index| measured_here(servers[index].0)) {
                let (_, url, token) = servers[index];
                let script = script.clone();
                let url = url.to_owned();
                let authorization = token.map(|token| format!("Bearer {token}"));
                let run = tokio::task::spawn_blocking(move || {
                    wrk::run(
                        &script,
                        &url,
                        authorization.as_deref(),
                        CLIENTS,
                        duration / 2,
                    )
                })
                .await
                .expect("the wrk run");
                totals[index].add(run);
            }
            Some(totals)
        } else {
            None
        };
        shutdown.cancel();

        println!("load: {CLIENTS} concurrent clients, {seconds} s each, tools/call echo over HTTP");
        println!(
            "{:<18} {:>10} {:>10} {:>10}",
            "server", "calls/s", "p50", "p99"
        );
        for ((name, _, _), m) in servers.iter().zip(&measured) {
            println!(
                "{name:<18} {:>10.0} {:>10.2?} {:>10.2?}",
                m.per_second(),
                m.quantile(0.50),
                m.quantile(0.99)
            );
        }
        let rate = |index: usize| measured[index].per_second();
        if only.is_some() {
            println!("(one server measured: no ratios)");
        } else {
            println!(
                "wiki-mcp / rmcp default: {:.2}x throughput; wiki-mcp / rmcp static: {:.2}x; \
                 via rmcp / rmcp static: {:.2}x",
                rate(2) / rate(0),
                rate(2) / rate(1),
                rate(3) / rate(1)
            );
        }
        match wrk_totals {
            Some(totals) => {
                println!(
                    "wrk (another process, 1 thread, {CLIENTS} connections), {} s each:",
                    2.0 * wrk::whole_seconds(duration / 2)
                );
                println!(
                    "{:<18} {:>10} {:>10} {:>10}",
                    "server", "calls/s", "p50", "p99"
                );
                for ((name, _, _), total) in servers.iter().zip(&totals) {
                    println!(
                        "{name:<18} {:>10.0} {:>10.2?} {:>10.2?}",
                        total.per_second(),
                        total.worst(|run| run.p50),
                        total.worst(|run| run.p99)
                    );
                }
                let rate = |index: usize| totals[index].per_second();
                if only.is_none() {
                    println!(
                        "wrk: wiki-mcp / rmcp default: {:.2}x throughput; wiki-mcp / rmcp static: \
                         {:.2}x; via rmcp / rmcp static: {:.2}x",
                        rate(2) / rate(0),
                        rate(2) / rate(1),
                        rate(3) / rate(1)
                    );
                }
            }
            None if benching => println!("wrk: skipped (not installed; `apt-get install wrk`)"),
            None => {}
        }
    });
}

/// The order servers are measured in: two rounds in opposite orders, half the time each, so
/// drift in the machine's speed (other work, thermal) weighs on every server alike.
fn rounds(servers: usize) -> impl Iterator<Item = usize> {
    (0..servers).chain((0..servers).rev())
}

/// Installs `serve`'s subscriber, writing to a file in `dir`.
fn production_logging(dir: &Path) -> LogGuard {
    logging::install(&LogOptions {
        filter: "info,rmcp=warn".to_owned(),
        json: false,
        file: Some(dir.join("wiki-mcp.log")),
    })
    .expect("the log subscriber")
}
