//! Scale-out load: two `wiki-mcp` replicas on one PostgreSQL database against one on SQLite, in
//! one run, over real HTTP (the scale-out load bench).
//!
//! Each server is the full stack `serve` runs (Host/Origin check, wiki gate, bearer token,
//! policy, doors, middleware, audit), on the demo farm with `write_document` enabled. A replica
//! is a `Manager` over its own `PostgresStore` (its own pool and notification connection, as
//! a separate process has) behind its own `HttpServer`; the peer is one server on a SQLite farm.
//!
//! Measured, in this order:
//! - **reads**: 64 concurrent clients (a keep-alive connection each) calling `get_document` on
//!   one page as fast as they can; on PostgreSQL the clients alternate between the replicas.
//!   Reported: calls/s, p50, p99, and PostgreSQL's throughput ratio to SQLite.
//! - **cross-replica visibility**: one writer saves a page through replica A, then asks replica
//!   B for it until B returns the new content; the time from the save's answer to B's first
//!   answer with it, 200 times. Target: p99 under 50 ms.
//!
//! `tests/postgres/with-cluster.sh cargo bench -p wiki-mcp-tests --bench replicas` runs 5 s of
//! reads per side (`LOAD_SECONDS` overrides); without `--bench` (a test build) a short smoke
//! pass so it cannot rot. Without `WIKI_MCP_TEST_DATABASE` it says it is skipped.

// A bench panics on failure by design.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code, reason = "this bench measures one round per side: no `add`")]
#[path = "support/measured.rs"]
mod measured;

use std::sync::Arc;
use std::time::{Duration, Instant};

// Linked for its tools (inventory collects them at link time): without it the servers offer
// `man` and `list_wikis` only, and every call measured would be an unknown tool's refusal.
use bundled_tools as _;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use wiki_mcp_cli::database::Database;
use wiki_mcp_cli::farm::{self, Content};
use wiki_server::http::{Directory, HttpOptions, HttpServer};
use wiki_server::{Manager, ServerSettings};
use wiki_store::model::wiki::WikiId;
use wiki_store::{Store, StoreConfig};

use crate::measured::Measured;

const CLIENTS: usize = 64;
const READ_PAGE: &str = "Main.WebHome";
const VISIBILITY_SAMPLES: usize = 200;

/// Enables `write_document` beside the defaults on the main wiki.
fn enable_writes(store: &dyn Store) {
    let main = WikiId::main();
    let mut config = store.mcp_config(&main);
    config.enabled_tools = ["man", "get_document", "query_documents", "write_document"]
        .map(str::to_owned)
        .to_vec();
    store
        .set_mcp_config(&main, &config, farm::CLI_AUTHOR)
        .expect("the configuration saves");
}

/// Serves `store` on loopback as `serve` does; returns the main wiki's endpoint.
async fn serve(
    store: Arc<dyn Store>,
    settings: ServerSettings,
    shutdown: CancellationToken,
) -> String {
    let server = HttpServer::bind(
        "127.0.0.1:0",
        HttpOptions {
            rate_limit: None,
            ..HttpOptions::default()
        },
    )
    .await
    .expect("bind");
    let endpoint = format!(
        "{}/rest/wikis/main/aiLLM/mcp",
        server.local_url().expect("the bound address")
    );
    let settings = settings.with_public_url(server.local_url().expect("the bound address"));
    // Store calls block (PostgreSQL's client runs its own runtime): off the async workers.
    let manager = tokio::task::spawn_blocking(move || Manager::new(store, settings))
        .await
        .expect("the manager task")
        .expect("the manager");
    tokio::spawn(server.serve(Arc::new(Directory::new(Arc::new(manager))), shutdown));
    endpoint
}

/// A token of the administrator on `store`.
fn admin_token(store: &dyn Store) -> String {
    store
        .create_token(farm::ADMIN_USER, "bench")
        .expect("a token")
        .token
        .expose()
        .to_owned()
}

/// One `tools/call`; the result's text, or a panic naming what came instead.
async fn call(
    http: &reqwest::Client,
    endpoint: &str,
    token: &str,
    tool: &str,
    arguments: Value,
) -> String {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    });
    let response = http
        .post(endpoint)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .body(body.to_string())
        .send()
        .await
        .expect("the server answers");
    assert_eq!(response.status(), 200, "{endpoint}");
    let answer: Value =
        serde_json::from_slice(&response.bytes().await.expect("a body")).expect("JSON");
    // A JSON-RPC error (an unknown tool, say) has no result: fail on it too, not read "".
    assert!(answer["result"].is_object(), "{answer}");
    assert_ne!(answer["result"]["isError"], json!(true), "{answer}");
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// One client reading until `deadline` on the endpoints in turn, recording each latency.
async fn reader(
    endpoints: Arc<Vec<String>>,
    token: String,
    offset: usize,
    deadline: Instant,
) -> Vec<Duration> {
    let http = reqwest::Client::new();
    let mut latencies = Vec::new();
    let mut turn = offset;
    while Instant::now() < deadline {
        let endpoint = &endpoints[turn % endpoints.len()];
        turn += 1;
        let started = Instant::now();
        call(
            &http,
            endpoint,
            &token,
            "get_document",
            json!({"reference": READ_PAGE}),
        )
        .await;
        latencies.push(started.elapsed());
    }
    latencies
}

/// `CLIENTS` readers spread over `endpoints` until `deadline`.
async fn readers(endpoints: &Arc<Vec<String>>, token: &str, deadline: Instant) -> Vec<Duration> {
    let clients: Vec<_> = (0..CLIENTS)
        .map(|client| {
            tokio::spawn(reader(
                Arc::clone(endpoints),
                token.to_owned(),
                client,
                deadline,
            ))
        })
        .collect();
    let mut latencies = Vec::new();
    for client in clients {
        latencies.extend(client.await.expect("a reader"));
    }
    latencies
}

/// Reads spread over `endpoints` for `duration`, after a warm-up of a fifth of it (connections
/// open, caches filled).
async fn reads(endpoints: &[String], token: &str, duration: Duration) -> Measured {
    let endpoints = Arc::new(endpoints.to_vec());
    readers(&endpoints, token, Instant::now() + duration / 5).await;
    let started = Instant::now();
    let latencies = readers(&endpoints, token, started + duration).await;
    Measured::new(latencies, started.elapsed())
}

/// Saves through `a` and polls `b` until it shows the save, `samples` times.
async fn visibility(a: &str, b: &str, token: &str, samples: usize) -> Measured {
    let http = reqwest::Client::new();
    let mut latencies = Vec::with_capacity(samples);
    let started = Instant::now();
    for sample in 0..samples {
        // A new page per sample: a save without base_version creates, it never overwrites.
        let page = format!("Bench.Visibility{sample}");
        let content = format!("visible sample {sample}");
        let wrote = call(
            &http,
            a,
            token,
            "write_document",
            json!({"reference": page.as_str(), "content": content}),
        )
        .await;
        let saved = Instant::now();
        loop {
            let read = call(
                &http,
                b,
                token,
                "get_document",
                json!({"reference": page.as_str()}),
            )
            .await;
            if read.contains(&content) {
                break;
            }
            assert!(
                saved.elapsed() < Duration::from_secs(10),
                "replica B never showed sample {sample}: A answered {wrote:?}, B {read:?}"
            );
        }
        latencies.push(saved.elapsed());
    }
    Measured::new(latencies, started.elapsed())
}

fn main() {
    let benching = std::env::args().any(|arg| arg == "--bench");
    let Some(server) = std::env::var("WIKI_MCP_TEST_DATABASE")
        .ok()
        .filter(|url| !url.trim().is_empty())
    else {
        println!(
            "replicas: skipped, WIKI_MCP_TEST_DATABASE is not set (tests/postgres/with-cluster.sh sets it)"
        );
        return;
    };
    let seconds: f64 = std::env::var("LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if benching { 5.0 } else { 0.2 });
    let duration = Duration::from_secs_f64(seconds);
    let samples = if benching { VISIBILITY_SAMPLES } else { 5 };
    let dir = tempfile::tempdir().expect("a temp dir");
    let database = wiki_store::testing::scratch::ScratchDatabase::empty(&server);
    let postgres: Database = database.url().parse().expect("a PostgreSQL URL");

    // Farms and stores are made before the runtime: their calls block.
    let sqlite = farm::create_at(
        &Database::Sqlite(dir.path().to_owned()),
        Content::Demo,
        StoreConfig::default(),
    )
    .expect("the SQLite farm");
    enable_writes(&*sqlite);
    let sqlite_token = admin_token(&*sqlite);
    let first = farm::create_at(&postgres, Content::Demo, StoreConfig::default())
        .expect("the PostgreSQL farm");
    enable_writes(&*first);
    let postgres_token = admin_token(&*first);
    let second = farm::open_at(&postgres, StoreConfig::default(), farm::Outage::Fail)
        .expect("a second store on the farm")
        .store;

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let shutdown = CancellationToken::new();
        let lone = serve(sqlite, ServerSettings::default(), shutdown.clone()).await;
        let a = serve(first, ServerSettings::default().with_farm_link_key(), shutdown.clone()).await;
        let b = serve(second, ServerSettings::default().with_farm_link_key(), shutdown.clone()).await;

        let on_sqlite = reads(std::slice::from_ref(&lone), &sqlite_token, duration).await;
        let on_postgres = reads(&[a.clone(), b.clone()], &postgres_token, duration).await;
        let seen = visibility(&a, &b, &postgres_token, samples).await;
        shutdown.cancel();

        println!("replicas: {CLIENTS} concurrent clients, {seconds} s each, tools/call get_document over HTTP");
        println!("{:<28} {:>10} {:>10} {:>10}", "server", "calls/s", "p50", "p99");
        for (name, measured) in [("1 replica on SQLite", &on_sqlite), ("2 replicas on PostgreSQL", &on_postgres)] {
            println!(
                "{name:<28} {:>10.0} {:>10.2?} {:>10.2?}",
                measured.per_second(),
                measured.quantile(0.50),
                measured.quantile(0.99)
            );
        }
        println!(
            "PostgreSQL (2 replicas) / SQLite (1): {:.2}x throughput",
            on_postgres.per_second() / on_sqlite.per_second()
        );
        println!(
            "cross-replica visibility (save on A until B shows it), {samples} samples: p50 {:.2?}, p99 {:.2?} (target p99 < 50 ms)",
            seen.quantile(0.50),
            seen.quantile(0.99)
        );
    });
}
