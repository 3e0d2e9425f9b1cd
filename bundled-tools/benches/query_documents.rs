//! query_documents over a 100,000-page generated wiki, end to end through the server's one call
//! path (`Manager::call`: the per-caller context, then the framework's middleware: argument parsing, the search door's wiki
//! scope and per-candidate rights and space-filter check, the store's search, result formatting,
//! the budget and the audit line) versus the store's search call alone with the same query and a
//! predicate that accepts everything, in the same run. The ratio is what the tool layer costs on
//! top of the search it cannot avoid.
//!
//! The wiki is generated once (a few minutes) and cached under Cargo's target tmp dir;
//! `BUNDLED_TOOLS_BENCH_PAGES` changes its size (the cache is per size).
//!
//! Run: `cargo bench -p bundled-tools --bench query_documents`.

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_runtime::call::ToolCall;
use mcp_runtime::param::JsonObject;
use serde_json::{Value, json};
use wiki_server::{Caller, Manager, ServerSettings};
use wiki_tool_sdk::store::generate::{SyntheticWiki, generate};
use wiki_tool_sdk::store::model::search::{SearchQuery, WikiScope};
use wiki_tool_sdk::store::model::user::ALL_USERS_GROUP;
use wiki_tool_sdk::store::model::wiki::WikiId;
use wiki_tool_sdk::store::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_tool_sdk::store::{RightsStore, SearchStore, SqliteStore, UserStore};

use bundled_tools as _;

/// Bumped when the generated content changes (the generator's spec is wiki-store's bench's).
const CACHE_VERSION: u32 = 1;

/// Unwraps a bench setup step, naming what failed.
#[track_caller]
fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|error| panic!("{error}"))
}

fn pages() -> usize {
    std::env::var("BUNDLED_TOOLS_BENCH_PAGES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000)
}

/// The generated wiki with user `alice`, who views `main` through the all-users group: the
/// rights check the tool applies to every candidate is a real one.
fn generated_store() -> SqliteStore {
    let base = option_env!("CARGO_TARGET_TMPDIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let dir = base.join(format!(
        "bundled-tools-query-bench-{}-v{CACHE_VERSION}",
        pages()
    ));
    let done = dir.join("complete");
    if !done.exists() {
        let _ = std::fs::remove_dir_all(&dir);
        let store = ok(SqliteStore::open(&dir));
        let spec = SyntheticWiki {
            pages: pages(),
            ..SyntheticWiki::default()
        };
        let started = std::time::Instant::now();
        let saved = ok(generate(&store, &spec, "generator"));
        eprintln!("generated {saved} pages in {:.1?}", started.elapsed());
        ok(std::fs::write(&done, b""));
    }
    let store = ok(SqliteStore::open(&dir));
    if store.user("alice").is_err() {
        ok(store.create_user("alice", None));
    }
    // Replaces the same rule on later runs.
    ok(store.set_right(&RightRule {
        scope: RightScope::Wiki(WikiId::main()),
        subject: Subject::Group(ALL_USERS_GROUP.to_owned()),
        right: Right::View,
        effect: Effect::Allow,
    }));
    store
}

/// One `tools/call` as the rmcp handler makes it: the endpoint, then `Manager::call`.
async fn call(manager: &Manager, arguments: &JsonObject) -> String {
    let caller = Caller::user(WikiId::main(), "alice");
    let server = ok(manager.endpoint(caller.wiki()).await);
    let request = ToolCall::new("query_documents", arguments.clone());
    let result = ok(manager.call(&server, &caller, request).await);
    match result.content.first().and_then(|block| block.as_text()) {
        Some(text) if result.is_error != Some(true) => text.text.clone(),
        _ => panic!("query_documents failed: {result:?}"),
    }
}

fn query_documents_100k(c: &mut Criterion) {
    let store = generated_store();
    let manager = ok(Manager::new(
        Arc::new(store.clone()),
        ServerSettings::default(),
    ));
    let runtime = ok(tokio::runtime::Runtime::new());
    let mut group = c.benchmark_group("query_documents_100k");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    // A word on about half the pages (the 2000-candidate scan is full), two common words, and a
    // word on one page.
    for words in ["budget", "budget review", "page4242"] {
        let Value::Object(arguments) = json!({"query": words}) else {
            panic!("arguments are an object");
        };
        let query = SearchQuery::new(
            Some(words.to_owned()),
            WikiScope::Only(vec![WikiId::main()]),
        );
        let alone = ok(store.search(&query, &mut |_| true));
        let text = runtime.block_on(call(&manager, &arguments));
        assert!(
            text.contains(&format!(" {} matching documents", alone.total)),
            "the tool counts what the store finds for {words:?}: {text}"
        );
        group.bench_function(format!("store_search_alone/{words}"), |b| {
            b.iter(|| black_box(ok(store.search(black_box(&query), &mut |_| true))))
        });
        // The same call on the blocking pool, as the tool's door runs it: separates what the
        // thread hop costs (or saves) from what the tool layer adds.
        let shared = Arc::new(store.clone());
        group.bench_function(format!("store_search_on_blocking_pool/{words}"), |b| {
            b.iter(|| {
                let store = Arc::clone(&shared);
                let query = query.clone();
                let searched = runtime.block_on(runtime.spawn_blocking(move || {
                    store
                        .search(&query, &mut |_| true)
                        .map(|results| results.total)
                }));
                black_box(ok(ok(searched)))
            })
        });
        group.bench_function(format!("tool_through_middleware/{words}"), |b| {
            b.iter(|| black_box(runtime.block_on(call(&manager, black_box(&arguments)))))
        });
    }
    group.finish();
}

criterion_group!(benches, query_documents_100k);
criterion_main!(benches);
