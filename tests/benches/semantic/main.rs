//! Semantic search: quality and speed, in one run.
//!
//! 1. **Quality** on a team wiki of [`QUALITY_PAGES`] pages: the 48 labelled pages of
//!    `labelled.rs`, each with an agent's question (25 share no content word with their page),
//!    among generated filler pages. Reported: recall@5 of the keyword list (the store's
//!    full-text search, any word, function words left out, as `search_collections` runs it), of the semantic
//!    list (the index's nearest rows) and of their reciprocal-rank fusion, overall and per
//!    class of question.
//! 2. **Speed** on `SEMANTIC_BENCH_PAGES` pages (10,000 under `cargo bench`): the index
//!    rebuilt from nothing as `wiki-mcp index rebuild` does it (pages/s, chunks/s, total time),
//!    then `search_collections` and `query_documents` through `Manager::call` (the one call
//!    path of every transport) on the same farm, the labelled questions in turn: p50 and p99
//!    of each, and their ratio. The first search (which loads the wiki's vectors into memory)
//!    is reported apart.
//!
//! Needs the model (`semantic-search/scripts/install-test-model.sh`); says it is skipped
//! without it. `cargo bench -p wiki-mcp-tests --bench semantic` runs both parts; without
//! `--bench` (a test build) it runs a smoke pass of 60 pages so it cannot rot.

mod labelled;

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

// Linked for their tools, as in the stock binary.
use bundled_tools as _;
use mcp_runtime::call::ToolCall;
use semantic_search::fuse::{KEYWORD_WEIGHT, weighted_reciprocal_rank_fusion};
use semantic_search::{
    Embedder, MODEL_DIR_ENV, ModelDir, ModelPackage, REBUILD_ROWS, SemanticIndex, SemanticService,
};
use serde_json::{Value, json};
use wiki_server::{Caller, Manager, ServerSettings};
use wiki_store::model::document::DocumentSave;
use wiki_store::model::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::model::search::{SearchQuery, WikiScope, WordMatch};
use wiki_store::model::user::ALL_USERS_GROUP;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::{DocumentStore, RightsStore, SearchStore, SqliteStore, Store, UserStore};

use crate::labelled::{LABELLED, filler};

/// Pages of the quality corpus.
const QUALITY_PAGES: usize = 300;

/// How many results count.
const AT: usize = 5;

/// The user the searches run as.
const USER: &str = "alice";

fn main() {
    let benching = std::env::args().any(|arg| arg == "--bench");
    let Some(model) = installed_model() else {
        return;
    };
    let embedder = Embedder::load(&model).expect("the model loads");
    let index = SemanticIndex::with_embedder(embedder);
    let quality_pages = if benching { QUALITY_PAGES } else { 60 };
    let scale_pages: usize = std::env::var("SEMANTIC_BENCH_PAGES")
        .ok()
        .and_then(|pages| pages.parse().ok())
        .unwrap_or(if benching { 10_000 } else { 60 });

    let farm = Farm::new(quality_pages, index.clone());
    farm.rebuild();
    quality(&farm);
    drop(farm);

    let farm = Farm::new(scale_pages, index);
    let rebuilt = farm.rebuild();
    println!(
        "rebuild, {} pages: {:.1} s ({:.1} pages/s, {} chunks, {:.1} chunks/s)",
        scale_pages,
        rebuilt.elapsed.as_secs_f64(),
        scale_pages as f64 / rebuilt.elapsed.as_secs_f64(),
        rebuilt.chunks,
        rebuilt.chunks as f64 / rebuilt.elapsed.as_secs_f64()
    );
    let rounds = if benching { 5 } else { 1 };
    speed(&farm, rounds);
}

/// The model the install script put in the cache, or `None` after saying the bench is skipped.
fn installed_model() -> Option<ModelDir> {
    let package = ModelPackage::all_minilm_l6_v2();
    let dir = std::env::var_os(MODEL_DIR_ENV)
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"))
                .join("models")
                .join(&package.model)
        });
    match ModelDir::verify(&dir, package) {
        Ok(model) => Some(model),
        Err(error) => {
            println!(
                "semantic bench: skipped: model not installed (run semantic-search/scripts/install-test-model.sh): {error}"
            );
            None
        }
    }
}

struct Farm {
    _dir: tempfile::TempDir,
    store: SqliteStore,
    index: SemanticIndex,
    manager: Arc<Manager>,
}

struct Rebuilt {
    elapsed: Duration,
    chunks: usize,
}

impl Farm {
    /// The labelled pages and `pages - 48` filler pages, viewable by every user.
    fn new(pages: usize, index: SemanticIndex) -> Farm {
        let dir = tempfile::tempdir().expect("a temp dir");
        let store = SqliteStore::open(dir.path()).expect("the farm");
        store.create_user(USER, None).expect("the user");
        store
            .set_right(&RightRule {
                scope: RightScope::Wiki(WikiId::main()),
                subject: Subject::Group(ALL_USERS_GROUP.into()),
                right: Right::View,
                effect: Effect::Allow,
            })
            .expect("the view right");
        let labelled = LABELLED.iter().map(|page| {
            (
                page.name.to_owned(),
                page.title.to_owned(),
                format!("# {}\n\n{}\n", page.title, page.body),
            )
        });
        for (name, title, body) in labelled.chain(filler(pages.saturating_sub(LABELLED.len()))) {
            store
                .save_document(&DocumentSave::new(reference(&name), body, "admin").title(title))
                .expect("a page");
        }
        let shared: Arc<dyn Store> = Arc::new(store.clone());
        let settings = ServerSettings::default()
            .with_service(SemanticService::new(index.clone(), Arc::clone(&shared)));
        let manager = Arc::new(Manager::new(shared, settings).expect("the manager"));
        Farm {
            _dir: dir,
            store,
            index,
            manager,
        }
    }

    /// Indexes every page from nothing, as `wiki-mcp index rebuild` does.
    fn rebuild(&self) -> Rebuilt {
        let started = Instant::now();
        let mut chunks = 0;
        loop {
            let done = self
                .index
                .catch_up(&self.store, &WikiId::main(), REBUILD_ROWS)
                .expect("indexing");
            chunks += done.embedded + done.reused;
            if done.remaining == 0 || done.rows == 0 {
                break;
            }
        }
        Rebuilt {
            elapsed: started.elapsed(),
            chunks,
        }
    }

    fn keyword(&self, query: &str) -> Vec<DocumentReference> {
        let mut search = SearchQuery::new(
            Some(query.to_owned()),
            WikiScope::Only(vec![WikiId::main()]),
        );
        search.limit = 10;
        search.scan_limit = 200;
        search.words = WordMatch::Any;
        self.store
            .search(&search, &mut |_| true)
            .expect("a keyword search")
            .hits
            .into_iter()
            .map(|hit| hit.candidate.reference)
            .collect()
    }

    fn semantic(&self, query: &str) -> Vec<DocumentReference> {
        let embedder = self.index.embedder().expect("the model");
        let vector = embedder
            .embed(&[query])
            .expect("an embedding")
            .pop()
            .unwrap_or_default();
        self.index
            .nearest(&self.store, &WikiId::main(), &vector, 10, &mut |row| {
                !row.hidden
            })
            .expect("a semantic search")
            .into_iter()
            .map(|found| found.reference)
            .collect()
    }

    /// One call through the real call path as [`USER`]; its latency.
    fn call(&self, runtime: &tokio::runtime::Runtime, tool: &str, arguments: Value) -> Duration {
        let Value::Object(arguments) = arguments else {
            unreachable!("arguments are an object");
        };
        let caller = Caller::user(WikiId::main(), USER);
        runtime.block_on(async {
            let server = self
                .manager
                .endpoint(caller.wiki())
                .await
                .expect("the endpoint");
            let started = Instant::now();
            let result = self
                .manager
                .call(&server, &caller, ToolCall::new(tool, arguments))
                .await
                .expect("a call");
            let elapsed = started.elapsed();
            assert_ne!(result.is_error, Some(true), "{tool}: {result:?}");
            elapsed
        })
    }
}

fn reference(name: &str) -> DocumentReference {
    DocumentReference::parse(name, &WikiId::main()).expect("a page name")
}

fn quality(farm: &Farm) {
    #[derive(Default)]
    struct Hits {
        questions: usize,
        keyword: usize,
        semantic: usize,
        fused: usize,
    }
    let mut by_class = [Hits::default(), Hits::default()];
    for page in LABELLED {
        let target = reference(page.name);
        let keyword = farm.keyword(page.query);
        let semantic = farm.semantic(page.query);
        // As search_collections fuses them: the semantic list first, winning ties.
        let fused = weighted_reciprocal_rank_fusion(
            &[
                (1.0, semantic.as_slice()),
                (KEYWORD_WEIGHT, keyword.as_slice()),
            ],
            10,
        );
        let found = |list: &[DocumentReference]| list.iter().take(AT).any(|r| *r == target);
        let hits = &mut by_class[usize::from(page.shares_words)];
        hits.questions += 1;
        hits.keyword += usize::from(found(&keyword));
        hits.semantic += usize::from(found(&semantic));
        hits.fused += usize::from(found(&fused));
    }
    let recall = |hits: usize, of: usize| hits as f64 / of.max(1) as f64;
    println!("recall@{AT} over {} questions:", LABELLED.len());
    println!(
        "{:<36} {:>8} {:>9} {:>6}",
        "questions", "keyword", "semantic", "fused"
    );
    let [paraphrase, sharing] = &by_class;
    for (name, hits) in [
        ("no word of the page", paraphrase),
        ("sharing a word", sharing),
    ] {
        println!(
            "{:<36} {:>8.2} {:>9.2} {:>6.2}",
            format!("{name} ({})", hits.questions),
            recall(hits.keyword, hits.questions),
            recall(hits.semantic, hits.questions),
            recall(hits.fused, hits.questions)
        );
    }
    let all = paraphrase.questions + sharing.questions;
    println!(
        "{:<36} {:>8.2} {:>9.2} {:>6.2}",
        format!("all ({all})"),
        recall(paraphrase.keyword + sharing.keyword, all),
        recall(paraphrase.semantic + sharing.semantic, all),
        recall(paraphrase.fused + sharing.fused, all)
    );
}

fn speed(farm: &Farm, rounds: usize) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let first = farm.call(&runtime, "search_collections", json!({"query": "warm up"}));
    println!(
        "first search_collections (loads the vectors): {:.1} ms",
        ms(first)
    );
    let mut searched = Vec::new();
    let mut queried = Vec::new();
    let mut seen = HashSet::new();
    for _ in 0..rounds {
        for page in LABELLED {
            seen.insert(page.query);
            searched.push(farm.call(&runtime, "search_collections", json!({"query": page.query})));
            queried.push(farm.call(&runtime, "query_documents", json!({"query": page.query})));
        }
    }
    let (search_p50, search_p99) = quantiles(&mut searched);
    let (query_p50, query_p99) = quantiles(&mut queried);
    println!(
        "{} calls each ({} questions):   p50      p99",
        searched.len(),
        seen.len()
    );
    println!(
        "search_collections          {:>7.1} ms {:>7.1} ms",
        ms(search_p50),
        ms(search_p99)
    );
    println!(
        "query_documents             {:>7.1} ms {:>7.1} ms",
        ms(query_p50),
        ms(query_p99)
    );
    println!(
        "ratio                       {:>7.2}x   {:>7.2}x",
        ms(search_p50) / ms(query_p50).max(f64::MIN_POSITIVE),
        ms(search_p99) / ms(query_p99).max(f64::MIN_POSITIVE)
    );
}

fn quantiles(latencies: &mut [Duration]) -> (Duration, Duration) {
    latencies.sort_unstable();
    let at = |q: f64| {
        let last = latencies.len().saturating_sub(1);
        latencies
            .get(((latencies.len() as f64 * q) as usize).min(last))
            .copied()
            .unwrap_or_default()
    };
    (at(0.5), at(0.99))
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
