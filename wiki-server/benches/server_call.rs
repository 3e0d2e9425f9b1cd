//! One `tools/call` of a trivial tool through the whole server core (the wiki's cached server,
//! the change-sequence check, the caller's doors, the framework's middleware with its timeout,
//! panic boundary and audit event) versus a bare rmcp `#[tool_router]` server, both driven by rmcp's
//! client over an in-process pipe in the same run. Both sides pay the same JSON-RPC and
//! transport costs; the difference is what the server core adds per call. The audit event is
//! formatted by a real subscriber (writing to a sink), as in production.
//!
//! Not the HTTP load test (64 clients over loopback; see BENCHMARKS.md): this isolates the core.
//!
//! Run: `cargo bench -p wiki-server --bench server_call`.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt, schemars, tool, tool_router};
use serde::Deserialize;
use serde_json::json;
use wiki_server::{Caller, Manager, McpHandler, ServerSettings};
use wiki_store::{SqliteStore, UserStore};
use wiki_tool_sdk::prelude::*;

/// Repeat a text.
#[mcp_tool(id = "bench_echo", category = "Bench")]
struct BenchEcho {
    /// The text to repeat.
    text: String,
}

impl Execute for BenchEcho {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(self.text))
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
struct EchoArgs {
    /// The text to repeat.
    text: String,
}

/// The bare rmcp server with the same tool (rmcp's documented shape).
#[derive(Clone)]
struct BareServer;

#[tool_router(server_handler)]
impl BareServer {
    /// Repeat a text.
    #[tool(name = "bench_echo")]
    fn bench_echo(&self, Parameters(args): Parameters<EchoArgs>) -> String {
        args.text
    }
}

type Client = RunningService<RoleClient, ()>;

async fn connect<S: rmcp::ServerHandler>(server: S) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    match ().serve(client_io).await {
        Ok(client) => client,
        Err(error) => panic!("client: {error}"),
    }
}

fn bench(c: &mut Criterion) {
    let _ = tracing::subscriber::set_global_default(
        tracing_subscriber::fmt()
            .with_writer(std::io::sink)
            .with_max_level(tracing::Level::INFO)
            .finish(),
    );
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => panic!("tokio runtime: {error}"),
    };
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(error) => panic!("temp dir: {error}"),
    };
    let store = match SqliteStore::open(dir.path()) {
        Ok(store) => store,
        Err(error) => panic!("store: {error}"),
    };
    if let Err(error) = store.create_user("bench", None) {
        panic!("user: {error}");
    }
    let manager = match Manager::new(Arc::new(store), ServerSettings::default()) {
        Ok(manager) => Arc::new(manager),
        Err(error) => panic!("manager: {error}"),
    };
    let caller = Caller::user(WikiId::main(), "bench");
    let (ours, bare) = runtime.block_on(async {
        (
            connect(McpHandler::with_caller(manager, caller)).await,
            connect(BareServer).await,
        )
    });
    let request = match json!({"text": "hello"}) {
        serde_json::Value::Object(arguments) => {
            CallToolRequestParams::new("bench_echo").with_arguments(arguments)
        }
        _ => CallToolRequestParams::new("bench_echo"),
    };
    for client in [&ours, &bare] {
        let answer = runtime.block_on(client.call_tool(request.clone()));
        assert!(
            answer.is_ok_and(|result| result.is_error != Some(true)),
            "both servers answer the call"
        );
    }

    let mut group = c.benchmark_group("tools_call_echo");
    group.bench_function("wiki_mcp_core", |b| {
        b.iter(|| runtime.block_on(ours.call_tool(black_box(request.clone()))))
    });
    group.bench_function("bare_rmcp", |b| {
        b.iter(|| runtime.block_on(bare.call_tool(black_box(request.clone()))))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
