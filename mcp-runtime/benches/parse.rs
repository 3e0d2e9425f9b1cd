//! Parse-and-validate of a 6-parameter tool's arguments: the parser `#[mcp_tool]` generates
//! versus rmcp's own `#[tool]` + `Parameters<T>` serde path for the same parameters, measured in
//! the same run. Ours does more (trims, refuses blanks, checks ranges, refuses unknown names with
//! the accepted list); the question is whether that costs anything.
//!
//! Two levels: `parse_six_params` compares the extraction alone (`ToolParams::parse_args` vs
//! rmcp's `Parameters::<T>::from_context_part`); `call_six_params` compares a whole call to a
//! trivial tool (the declaration's `invoke` vs rmcp's `ToolRouter::call`). Dropping the results
//! and rmcp's per-call context is outside the timing where the API allows it; cloning the
//! arguments rmcp takes by value is always outside (a server owns them anyway).
//!
//! Run: `cargo bench -p mcp-runtime --bench parse`.

use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use mcp_runtime::declaration::ToolParams;
use mcp_runtime::param::JsonObject;
use mcp_runtime::prelude::*;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::{ToolCallContext, ToolRouter};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, NumberOrString};
use rmcp::service::{RequestContext, RoleServer, serve_directly};
use rmcp::{schemars, tool, tool_router};
use serde::Deserialize;
use serde_json::json;

/// Search pages by text.
///
/// The 6-parameter tool measured here.
#[mcp_tool(id = "search_pages", category = "Bench")]
struct SearchPages {
    /// Text to search for.
    query: String,
    /// Restrict to this space.
    space: Option<String>,
    /// Results per page.
    #[param(default = 20, range = 1..=100)]
    limit: i64,
    /// Results to skip.
    #[param(default = 0, range = 0..=10_000)]
    offset: i64,
    /// Include hidden pages.
    hidden: bool,
    /// Page kinds to include.
    kinds: Vec<String>,
}

impl Execute for SearchPages {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        black_box((
            &self.space,
            self.limit,
            self.offset,
            self.hidden,
            &self.kinds,
        ));
        Ok(ToolOutput::text(self.query))
    }
}

/// The same parameters as rmcp expects them: serde + schemars.
#[derive(Deserialize, schemars::JsonSchema)]
struct SearchArgs {
    /// Text to search for.
    query: String,
    /// Restrict to this space.
    space: Option<String>,
    /// Results per page.
    #[serde(default = "default_limit")]
    limit: i64,
    /// Results to skip.
    #[serde(default)]
    offset: i64,
    /// Include hidden pages.
    #[serde(default)]
    hidden: bool,
    /// Page kinds to include.
    #[serde(default)]
    kinds: Vec<String>,
}

fn default_limit() -> i64 {
    20
}

/// A bare rmcp server with the same tool.
#[derive(Clone)]
struct RmcpServer;

#[tool_router(server_handler)]
impl RmcpServer {
    /// Search pages by text.
    #[tool(name = "search_pages")]
    fn search_pages(&self, Parameters(args): Parameters<SearchArgs>) -> String {
        black_box((
            &args.space,
            args.limit,
            args.offset,
            args.hidden,
            &args.kinds,
        ));
        args.query
    }
}

fn arguments() -> JsonObject {
    match json!({
        "query": "release notes",
        "space": "Sandbox",
        "limit": 50,
        "offset": 100,
        "hidden": true,
        "kinds": ["page", "blog"]
    }) {
        serde_json::Value::Object(arguments) => arguments,
        _ => JsonObject::new(),
    }
}

/// Polls a future that completes without waiting (both tools here are synchronous inside).
fn ready<F: Future>(future: F) -> F::Output {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the measured call waited on something"),
    }
}

fn bench(c: &mut Criterion) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => panic!("tokio runtime: {error}"),
    };
    let _guard = runtime.enter();
    // rmcp's request context needs a peer; a server on an idle in-memory pipe provides one.
    let (pipe, _other_end) = tokio::io::duplex(64);
    let running = serve_directly(RmcpServer, pipe, None);
    let request_context =
        RequestContext::<RoleServer>::new(NumberOrString::Number(1), running.peer().clone());
    let server = RmcpServer;
    let router: ToolRouter<RmcpServer> = RmcpServer::tool_router();
    let args = arguments();
    let rmcp_context = || {
        ToolCallContext::new(
            &server,
            CallToolRequestParams::new("search_pages").with_arguments(args.clone()),
            request_context.clone(),
        )
    };

    // Both paths accept these arguments (checked once, outside the timing).
    assert!(SearchPages::parse_args(&args).is_ok());
    assert!(Parameters::<SearchArgs>::from_context_part(&mut rmcp_context()).is_ok());

    let mut parse = c.benchmark_group("parse_six_params");
    parse.bench_function("wiki_mcp", |b| {
        b.iter_with_large_drop(|| SearchPages::parse_args(black_box(&args)))
    });
    parse.bench_function("rmcp", |b| {
        b.iter_batched(
            rmcp_context,
            |mut context| {
                let parsed = Parameters::<SearchArgs>::from_context_part(&mut context);
                (parsed, context)
            },
            BatchSize::SmallInput,
        )
    });
    parse.finish();

    let tool = match mcp_runtime::registry()
        .ok()
        .and_then(|r| r.get("search_pages"))
    {
        Some(tool) => tool.declaration(),
        None => panic!("search_pages is not registered"),
    };
    let ctx = ToolContext::new(Some("alice".to_owned()));
    let mut call = c.benchmark_group("call_six_params");
    call.bench_function("wiki_mcp", |b| {
        b.iter_with_large_drop(|| ready((tool.invoke)(&ctx, black_box(&args))))
    });
    call.bench_function("rmcp", |b| {
        b.iter_batched(
            rmcp_context,
            |context| ready(router.call(context)),
            BatchSize::SmallInput,
        )
    });
    call.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
