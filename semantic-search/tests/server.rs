//! The two tools through the real server path (`Manager::call`: the wiki's endpoint, the
//! caller's doors, the framework's middleware) on a real SQLite farm, with the real model when
//! it is installed (the tests that need it say "skipped" otherwise).
//!
//! The farm: `alice` and `bob` view `main`; only `bob` views space `Secret`. Pages about
//! setting the server up, backups, and a secret page about installing, so a query by meaning
//! must find the first and, for alice only, never the last.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_runtime::call::ToolCall;
use semantic_search::{INDEXER_LEASE_TTL, Indexer, SemanticIndex, SemanticService, collections};
use serde_json::{Value, json};
use tempfile::TempDir;
use wiki_server::{Caller, Manager, ServerSettings};
use wiki_tool_sdk::store::model::document::DocumentSave;
use wiki_tool_sdk::store::model::locale::Locale;
use wiki_tool_sdk::store::model::search::{SearchQuery, WikiScope};
use wiki_tool_sdk::store::model::user::ALL_USERS_GROUP;
use wiki_tool_sdk::store::model::wiki::WikiId;
use wiki_tool_sdk::store::reference::{DocumentReference, SpacePath};
use wiki_tool_sdk::store::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_tool_sdk::store::{
    AdjustableClock, DocumentStore, RightsStore, SearchStore, SqliteStore, Store, StoreConfig,
    TrashStore, UserStore,
};

struct Farm {
    _dir: TempDir,
    store: SqliteStore,
    manager: Arc<Manager>,
    /// The host's clock, as every store of the farm reads it.
    clock: AdjustableClock,
}

fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|error| panic!("{error}"))
}

fn reference(text: &str) -> DocumentReference {
    ok(DocumentReference::parse(text, &WikiId::main()))
}

fn save(store: &SqliteStore, page: &str, title: &str, content: &str) {
    ok(store.save_document(&DocumentSave::new(reference(page), content, "alice").title(title)));
}

impl Farm {
    fn new(index: SemanticIndex) -> Farm {
        let dir = ok(tempfile::tempdir());
        let clock = AdjustableClock::new();
        let store = ok(SqliteStore::open_with(dir.path(), config(&clock)));
        for name in ["alice", "bob"] {
            ok(store.create_user(name, None));
        }
        let allow = |scope, subject, right| {
            ok(store.set_right(&RightRule {
                scope,
                subject,
                right,
                effect: Effect::Allow,
            }))
        };
        allow(
            RightScope::Wiki(WikiId::main()),
            Subject::Group(ALL_USERS_GROUP.into()),
            Right::View,
        );
        allow(
            RightScope::Space {
                wiki: WikiId::main(),
                space: ok(SpacePath::parse("Secret")),
            },
            Subject::User("bob".into()),
            Right::View,
        );
        save(
            &store,
            "Docs.Setup",
            "Server setup",
            "# Getting started\n\nDownload the package, unpack it and run the setup wizard. \
             The wizard asks for a port and a data directory, then starts the service.\n\n\
             # Requirements\n\nA Linux machine with two cores and 2 GB of memory.\n",
        );
        save(
            &store,
            "Docs.Backups",
            "Backups",
            "Copy the data directory every night; restoring is copying it back while the \
             service is stopped.\n",
        );
        save(
            &store,
            "Team.Lunch",
            "Lunch menu",
            "Monday: soup. Tuesday: pasta. Wednesday: salad bar.\n",
        );
        save(
            &store,
            "Secret.Plans",
            "Installation secrets",
            "How to install the server without the wizard: copy the binary by hand.\n",
        );
        // The binary's wiring: the manager and the index's service share one store.
        let shared: Arc<dyn Store> = Arc::new(store.clone());
        let manager = Arc::new(ok(Manager::new(
            Arc::clone(&shared),
            ServerSettings::default().with_service(SemanticService::new(index, shared)),
        )));
        Farm {
            _dir: dir,
            store,
            manager,
            clock,
        }
    }

    /// alice's `search_collections` call with `arguments`, the separate lists asked for
    /// unless `arguments` says otherwise (the cases here look at each retrieval).
    async fn search(&self, mut arguments: Value) -> Result<String, String> {
        if let Value::Object(map) = &mut arguments {
            map.entry("separateLists").or_insert(Value::Bool(true));
        }
        self.call("search_collections", arguments, "alice").await
    }

    async fn call(&self, tool: &str, arguments: Value, user: &str) -> Result<String, String> {
        call_on(&self.manager, tool, arguments, user).await
    }

    /// Another process on this farm's directory: its own store connection, index and manager.
    fn replica(&self, index: SemanticIndex) -> (SqliteStore, Arc<Manager>) {
        let store = ok(SqliteStore::open_with(
            self._dir.path(),
            config(&self.clock),
        ));
        let shared: Arc<dyn Store> = Arc::new(store.clone());
        let manager = Arc::new(ok(Manager::new(
            Arc::clone(&shared),
            ServerSettings::default().with_service(SemanticService::new(index, shared)),
        )));
        (store, manager)
    }
}

/// A farm store's configuration: the default one on the farm's clock.
fn config(clock: &AdjustableClock) -> StoreConfig {
    StoreConfig {
        clock: clock.clock(),
        ..StoreConfig::default()
    }
}

/// Calls `tool` through `manager` as `user`: the tool's text, or its error's.
async fn call_on(
    manager: &Manager,
    tool: &str,
    arguments: Value,
    user: &str,
) -> Result<String, String> {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    let caller = Caller::user(WikiId::main(), user);
    let server = manager
        .endpoint(caller.wiki())
        .await
        .map_err(|e| e.message.to_string())?;
    let result = manager
        .call(&server, &caller, ToolCall::new(tool, arguments))
        .await
        .map_err(|e| e.message.to_string())?;
    let text = result
        .content
        .first()
        .and_then(|block| block.as_text())
        .map(|text| text.text.clone())
        .unwrap_or_default();
    if result.is_error == Some(true) {
        Err(text)
    } else {
        Ok(text)
    }
}

/// The index with the installed model, or `None` (the test is skipped, said on stderr).
fn model_index(test: &str) -> Option<SemanticIndex> {
    let model = support::installed_model(test)?;
    Some(SemanticIndex::with_embedder(ok(
        semantic_search::Embedder::load(&model),
    )))
}

/// Indexes everything stale.
fn index_all(farm: &Farm, index: &SemanticIndex) {
    while ok(index.catch_up(&farm.store, &WikiId::main(), 16)).remaining > 0 {}
}

/// The references of the `<reference>` lines of the block whose title starts with `title`
/// (`Fused`, `Keyword`, `Semantic`), in order.
fn block(output: &str, title: &str) -> Vec<String> {
    let mut current = "";
    let mut found = Vec::new();
    for line in output.lines() {
        for section in ["Fused", "Keyword", "Semantic"] {
            if line.starts_with(&format!("{section} results")) {
                current = section;
            }
        }
        if current == title
            && let Some(reference) = line
                .strip_prefix("<reference>")
                .and_then(|l| l.strip_suffix("</reference>"))
        {
            found.push(reference.to_owned());
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_query_by_meaning_finds_the_page_keywords_miss_and_only_viewable_ones() {
    let Some(index) = model_index("a_query_by_meaning_finds_the_page_keywords_miss") else {
        return;
    };
    let farm = Farm::new(index.clone());
    index_all(&farm, &index);

    let out = ok(farm.search(json!({"query": "how do I install it"})).await);
    let semantic = block(&out, "Semantic");
    assert_eq!(
        semantic.first().map(String::as_str),
        Some("main:Docs.Setup"),
        "{out}"
    );
    assert!(
        !out.contains("Secret.Plans"),
        "alice may not view Secret: {out}"
    );
    assert!(
        block(&out, "Keyword").is_empty(),
        "no page says install: {out}"
    );
    assert!(out.contains("<language>en</language>"), "{out}");
    assert!(
        out.contains("setup wizard"),
        "the passage is the content: {out}"
    );

    // The keyword block takes any of the question's words: no page holds all of these.
    let question = "which machine does the server need";
    let out = ok(farm.search(json!({"query": question})).await);
    assert_eq!(
        block(&out, "Keyword").first().map(String::as_str),
        Some("main:Docs.Setup"),
        "\"machine\" and \"server\" are on the setup page: {out}"
    );
    assert!(
        !block(&out, "Keyword").contains(&"main:Secret.Plans".to_owned()),
        "{out}"
    );
    let all_words = ok(farm.store.search(
        &SearchQuery::new(
            Some(question.to_owned()),
            WikiScope::Only(vec![WikiId::main()]),
        ),
        &mut |_| true,
    ));
    assert_eq!(all_words.total, 0, "every word required finds nothing");

    let bob = ok(farm
        .call(
            "search_collections",
            json!({"query": "install the server", "separateLists": true}),
            "bob",
        )
        .await);
    assert!(
        block(&bob, "Semantic").contains(&"main:Secret.Plans".to_owned()),
        "{bob}"
    );
    let fused = block(&bob, "Fused");
    let leader = fused.first().cloned().unwrap_or_default();
    assert!(
        block(&bob, "Semantic").contains(&leader) && block(&bob, "Keyword").contains(&leader),
        "a row found by both lists leads the fusion: {bob}"
    );
    assert!(fused.contains(&"main:Secret.Plans".to_owned()), "{bob}");
    assert!(bob.find("Fused").unwrap_or(usize::MAX) < bob.find("Keyword").unwrap_or(0));
}

/// bob's `search_collections` call: its text and structured content.
async fn search_structured(farm: &Farm, arguments: Value) -> (String, Value) {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    let caller = Caller::user(WikiId::main(), "bob");
    let server = ok(farm.manager.endpoint(caller.wiki()).await);
    let result = ok(farm
        .manager
        .call(
            &server,
            &caller,
            ToolCall::new("search_collections", arguments),
        )
        .await);
    let text = result
        .content
        .first()
        .and_then(|block| block.as_text())
        .map(|text| text.text.clone())
        .unwrap_or_default();
    assert_ne!(result.is_error, Some(true), "{text}");
    (text, result.structured_content.unwrap_or_default())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_answer_is_one_ranked_list_a_page_once_each_with_its_score_and_finder() {
    let Some(index) = model_index("the_default_answer_is_one_ranked_list") else {
        return;
    };
    let farm = Farm::new(index.clone());
    // The setup page in French too: a second row of the same page, found by both lists.
    ok(farm.store.save_document(
        &DocumentSave::new(
            reference("Docs.Setup"),
            "Installer le serveur : lancez l'assistant (wizard) d'installation du serveur.\n",
            "alice",
        )
        .locale(ok(Locale::parse("fr"))),
    ));
    index_all(&farm, &index);

    let (text, structured) = search_structured(&farm, json!({"query": "install the server"})).await;
    assert!(text.starts_with("Fused results ("), "{text}");
    assert!(
        !text.contains("Keyword results") && !text.contains("Semantic results"),
        "the separate lists only on request: {text}"
    );
    let results = structured["results"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        results.len(),
        text.matches("<result ").count(),
        "{structured}"
    );
    let pages: Vec<&str> = results
        .iter()
        .filter_map(|r| r["reference"].as_str())
        .collect();
    let mut unique = pages.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), pages.len(), "a page once: {pages:?}");
    assert!(pages.contains(&"main:Docs.Setup"), "{text}");

    let first = &results[0];
    assert_eq!(first["found"], "both", "both lists lead: {text}");
    assert!(first["score"].as_f64().is_some_and(|s| s > 0.8), "{first}");
    let head = format!(
        "<result found=\"both\" score=\"{:.2}\" similarity=\"{:.2}\">",
        first["score"].as_f64().unwrap_or_default(),
        first["similarity"].as_f64().unwrap_or_default()
    );
    assert!(text.contains(&head), "{head} in {text}");
    for row in &results {
        let found = row["found"].as_str().unwrap_or_default();
        let score = row["score"].as_f64().unwrap_or(-1.0);
        assert!((0.0..=1.0).contains(&score), "{row}");
        assert_eq!(
            row["similarity"].is_number(),
            found != "keyword",
            "a similarity for a row found by meaning: {row}"
        );
        if found != "both" {
            assert!(
                score < 0.6,
                "one list alone scores at most its share: {row}"
            );
        }
    }
    let scores: Vec<f64> = results.iter().filter_map(|r| r["score"].as_f64()).collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {scores:?}"
    );
    assert!(structured["keyword"].is_null() && structured["semantic"].is_null());

    let (text, structured) = search_structured(
        &farm,
        json!({"query": "install the server", "separateLists": true}),
    )
    .await;
    assert!(
        text.contains("\nKeyword results:\n") && text.contains("\nSemantic results:\n"),
        "{text}"
    );
    let semantic = structured["semantic"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        semantic.iter().all(|row| row["similarity"].is_number()) && !semantic.is_empty(),
        "{structured}"
    );
    assert!(structured["keyword"].is_array(), "{structured}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn collections_narrow_the_search_and_list_what_the_caller_may_query() {
    let Some(index) = model_index("collections_narrow_the_search") else {
        return;
    };
    let farm = Farm::new(index.clone());
    ok(collections::create(
        &farm.store,
        &WikiId::main(),
        "team",
        &["Team".to_owned()],
        "admin",
    ));
    index_all(&farm, &index);
    assert_eq!(
        ok(farm.call("list_collections", json!({}), "alice").await),
        "main\nteam"
    );
    let out = ok(farm
        .search(json!({"query": "how do I install it", "collections": ["team"]}))
        .await);
    assert_eq!(block(&out, "Semantic"), ["main:Team.Lunch"], "{out}");
    let unknown = farm
        .search(json!({"query": "x", "collections": ["nope"]}))
        .await;
    let message = unknown.err().unwrap_or_default();
    assert!(
        message.contains("no collection \"nope\"") && message.contains("main, team"),
        "{message}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_reads_what_is_indexed_and_says_how_far_behind_it_is() {
    let Some(index) = model_index("a_call_reads_what_is_indexed") else {
        return;
    };
    let farm = Farm::new(index.clone());
    index_all(&farm, &index);
    let relocation = json!({"query": "relocation of our workplace"});

    for i in 0..6 {
        save(
            &farm.store,
            &format!("News.Item{i}"),
            &format!("News {i}"),
            "The office moves to a new building next spring.\n",
        );
    }
    // A call never embeds a page: it would hold a heavy slot for as long as the page takes.
    let out = ok(farm.search(relocation.clone()).await);
    assert!(
        out.contains("The semantic index of wiki main is 6 pages behind"),
        "a call indexes nothing and says what is left: {out}"
    );
    let out = ok(farm.search(relocation.clone()).await);
    assert!(
        out.contains("The semantic index of wiki main is 6 pages behind"),
        "{out}"
    );
    index_all(&farm, &index);
    let out = ok(farm.search(relocation.clone()).await);
    assert!(!out.contains("behind"), "{out}");
    let semantic = block(&out, "Semantic");
    assert!(
        semantic.len() >= 6
            && semantic[..6]
                .iter()
                .all(|r| r.starts_with("main:News.Item")),
        "the six new pages come first: {out}"
    );

    // The index was just found caught up, so calls skip reading the backlog until something
    // commits: a save must still be seen by the very next call.
    save(
        &farm.store,
        "News.Late",
        "Late news",
        "Our headquarters relocate to a bigger campus.\n",
    );
    let out = ok(farm.search(relocation.clone()).await);
    assert!(
        out.contains("The semantic index of wiki main is 1 page behind"),
        "a save after the index was caught up is seen by the next call: {out}"
    );

    // Only the chunks whose text changed are embedded again.
    index_all(&farm, &index);
    save(
        &farm.store,
        "Docs.Setup",
        "Server setup",
        "# Getting started\n\nDownload the package, unpack it and run the setup wizard. \
         The wizard asks for a port and a data directory, then starts the service.\n\n\
         # Requirements\n\nA Linux machine with four cores and 8 GB of memory.\n",
    );
    let done = ok(index.catch_up(&farm.store, &WikiId::main(), 16));
    assert_eq!(
        (done.rows, done.embedded, done.reused),
        (1, 1, 1),
        "{done:?}"
    );
}

/// Saves `Archive.Long0` to `Archive.Long2`, each of 100 short sections: every page makes more
/// chunks than a page gives the index.
fn save_three_long_pages(farm: &Farm) {
    let long: String = (0..100)
        .map(|section| {
            format!(
                "# Section {section}\n\nThe archive keeps record {section} of the ledger, \
                 filed by the clerk who reviewed shipment {section} at the harbour.\n\n"
            )
        })
        .collect();
    for page in 0..3 {
        save(&farm.store, &format!("Archive.Long{page}"), "Ledger", &long);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_page_gives_the_index_its_first_chunks_and_a_step_embeds_a_bounded_number() {
    let Some(index) = model_index("a_long_page_gives_the_index_its_first_chunks") else {
        return;
    };
    let farm = Farm::new(index.clone());
    index_all(&farm, &index);
    // Three pages of 100 sections each: far more chunks than a page gives the index.
    save_three_long_pages(&farm);
    // One step embeds the chunks of whole pages until a step's worth is reached, never a
    // page's chunks past the first ones: two pages here, the third in the next step.
    let done = ok(index.catch_up(&farm.store, &WikiId::main(), 16));
    assert_eq!(
        (done.rows, done.embedded + done.reused, done.remaining),
        (2, 2 * semantic_search::MAX_CHUNKS_PER_PAGE, 1),
        "{done:?}"
    );
    const { assert!(2 * semantic_search::MAX_CHUNKS_PER_PAGE >= semantic_search::CHUNKS_PER_STEP) };
    let done = ok(index.catch_up(&farm.store, &WikiId::main(), 16));
    assert_eq!((done.rows, done.remaining), (1, 0), "{done:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_asked_to_yield_stops_after_its_first_batch_and_the_next_step_goes_on() {
    let Some(index) = model_index("a_step_asked_to_yield_stops_after_its_first_batch") else {
        return;
    };
    let farm = Farm::new(index.clone());
    index_all(&farm, &index);
    // Three pages of a full batch of chunks each: one step would embed two of them.
    save_three_long_pages(&farm);
    let asked = std::cell::Cell::new(0);
    let yield_now = || {
        asked.set(asked.get() + 1);
        true
    };
    let done = ok(index.catch_up_until(&farm.store, &WikiId::main(), 16, &yield_now));
    assert_eq!(
        (done.rows, done.embedded, done.remaining, asked.get()),
        (1, semantic_search::MAX_CHUNKS_PER_PAGE, 2, 1),
        "one batch stored, then it yielded: {done:?}"
    );
    // What it stored stays stored; the next step goes on with the rest.
    let done = ok(index.catch_up(&farm.store, &WikiId::main(), 16));
    assert_eq!((done.rows, done.remaining), (2, 0), "{done:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_model_the_tool_answers_keywords_and_says_how_to_install_it() {
    let farm = Farm::new(SemanticIndex::without_model("not installed"));
    let out = ok(farm.search(json!({"query": "wizard"})).await);
    assert!(out.contains("wiki-mcp models install"), "{out}");
    assert_eq!(block(&out, "Keyword"), ["main:Docs.Setup"], "{out}");
    assert!(
        !out.contains("not installed in"),
        "no path or operator text: {out}"
    );

    let refused = farm
        .search(json!({"query": "wizard", "limitKeywordResults": 51}))
        .await;
    let message = refused.err().unwrap_or_default();
    assert!(message.contains("between 0 and 50"), "{message}");
}

/// Regression: every defined collection was listed to every caller, naming collections over
/// spaces they may not view.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collection_over_spaces_the_caller_cannot_view_is_not_listed() {
    let farm = Farm::new(SemanticIndex::without_model("not installed"));
    ok(farm.store.set_right(&RightRule {
        scope: RightScope::Space {
            wiki: WikiId::main(),
            space: ok(SpacePath::parse("Secret")),
        },
        subject: Subject::User("alice".into()),
        right: Right::View,
        effect: Effect::Deny,
    }));
    for (id, space) in [("plans", "Secret"), ("team", "Team")] {
        ok(collections::create(
            &farm.store,
            &WikiId::main(),
            id,
            &[space.to_owned()],
            "admin",
        ));
    }
    assert_eq!(
        ok(farm.call("list_collections", json!({}), "alice").await),
        "main\nteam"
    );
    assert_eq!(
        ok(farm.call("list_collections", json!({}), "bob").await),
        "main\nplans\nteam"
    );
    let refused = farm
        .search(json!({"query": "x", "collections": ["plans"]}))
        .await;
    let message = refused.err().unwrap_or_default();
    assert!(message.contains("no collection \"plans\""), "{message}");
}

/// The references and scores of a result list.
fn ranked(found: &[semantic_search::Nearest]) -> Vec<(String, f32)> {
    found
        .iter()
        .map(|n| (n.reference.to_string(), n.score))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_in_memory_scan_ranks_as_the_stored_scan_and_follows_saves_and_deletes() {
    let Some(index) = model_index("the_in_memory_scan_ranks_as_the_stored_scan") else {
        return;
    };
    let farm = Farm::new(index.clone());
    index_all(&farm, &index);
    let main = WikiId::main();
    let embed = |text: &str| -> Vec<f32> {
        let embedder = index.embedder().unwrap_or_else(|| panic!("a model"));
        ok(embedder.embed(&[text])).pop().unwrap_or_default()
    };
    for query in [
        "how do I install it",
        "copying the data every night",
        "what is for lunch",
    ] {
        let vector = embed(query);
        let memory = ok(index.nearest(&farm.store, &main, &vector, 10, &mut |_| true));
        let stored = ok(semantic_search::nearest(
            &farm.store,
            &main,
            &vector,
            10,
            &mut |_| true,
        ));
        let (memory, stored) = (ranked(&memory), ranked(&stored));
        assert_eq!(memory.len(), stored.len(), "{query}");
        for ((a, x), (b, y)) in memory.iter().zip(&stored) {
            assert_eq!(a, b, "{query}: {memory:?} vs {stored:?}");
            assert!((x - y).abs() < 1e-5, "{query}: {memory:?} vs {stored:?}");
        }
    }
    let lunch = embed("what is for lunch");
    let first = |vector: &[f32], accept: &mut dyn FnMut(&semantic_search::RowInfo) -> bool| {
        ok(index.nearest(&farm.store, &main, vector, 1, accept))
            .first()
            .map(|n| (n.reference.to_string(), n.text.clone()))
    };
    assert_eq!(
        first(&lunch, &mut |_| true).map(|(r, _)| r),
        Some("main:Team.Lunch".to_owned())
    );
    // The filter is asked in rank order: refusing the best row yields the next one.
    assert_ne!(
        first(&lunch, &mut |row| row.reference.to_string()
            != "main:Team.Lunch")
        .map(|(r, _)| r),
        Some("main:Team.Lunch".to_owned())
    );

    // A save re-indexed in this process replaces the row's vectors in memory.
    save(
        &farm.store,
        "Team.Lunch",
        "Lunch menu",
        "Monday: curry. Tuesday: noodles. Wednesday: a sandwich buffet.\n",
    );
    index_all(&farm, &index);
    let (found, text) = first(&lunch, &mut |_| true).unwrap_or_default();
    assert_eq!(found, "main:Team.Lunch");
    assert!(text.contains("curry"), "the new passage: {text}");

    // A delete is seen on the next query without any indexing (the change feed).
    ok(farm
        .store
        .delete_document(&wiki_tool_sdk::store::model::trash::DocumentDelete {
            reference: reference("Team.Lunch"),
            author: "alice".into(),
            comment: "gone".into(),
            expected: wiki_tool_sdk::store::model::document::Expected::Any,
        }));
    let after = ok(index.nearest(&farm.store, &main, &lunch, 10, &mut |_| true));
    assert!(
        after
            .iter()
            .all(|n| n.reference.to_string() != "main:Team.Lunch"),
        "{:?}",
        ranked(&after)
    );
    assert!(index.chunks_in_memory(&main) > 0);
}

/// Two processes' worth of store, index, indexer and manager on one SQLite directory: exactly
/// one indexes (holds the lease), a page saved through the other is found by meaning through
/// the other within seconds (its vectors follow what the holder stores), and when the holder
/// stops, the other takes over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_one_farm_index_once_and_each_searches_what_the_other_stored() {
    let (Some(index_a), Some(index_b)) = (
        model_index("two_processes_on_one_farm"),
        model_index("two_processes_on_one_farm"),
    ) else {
        return;
    };
    let farm = Farm::new(index_a.clone());
    let (store_b, manager_b) = farm.replica(index_b.clone());
    let shared_a: Arc<dyn Store> = Arc::new(farm.store.clone());
    let shared_b: Arc<dyn Store> = Arc::new(store_b.clone());
    let indexer_a = ok(Indexer::spawn(shared_a, index_a.clone()));
    let indexer_b = ok(Indexer::spawn(shared_b, index_b.clone()));

    let until = |what: &str, limit: Duration, test: &dyn Fn() -> bool| {
        let deadline = Instant::now() + limit;
        while !test() {
            assert!(Instant::now() < deadline, "{what}: not within {limit:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    until(
        "one of them finds the lease held",
        Duration::from_secs(30),
        &|| index_a.indexed_elsewhere() || index_b.indexed_elsewhere(),
    );
    let a_holds = index_b.indexed_elsewhere();
    // Renewals, each half a lease later by the farm's clock: the holder's renewal extends its
    // lease, so past the end of the first one the other is still refused. Each asks as its
    // keeper would, without waiting for the keeper's turn.
    let (holding, asking) = if a_holds {
        (&indexer_a, &indexer_b)
    } else {
        (&indexer_b, &indexer_a)
    };
    for _ in 0..3 {
        farm.clock.advance(INDEXER_LEASE_TTL / 2);
        assert!(
            !asking.ask_lease_now(),
            "renewed in time: still the holder's"
        );
        assert!(holding.ask_lease_now(), "the holder renews");
    }
    assert!(
        index_a.indexed_elsewhere() != index_b.indexed_elsewhere(),
        "exactly one indexes"
    );
    let (holder_store, other_store, other_manager, holder, other, other_index) = if a_holds {
        (
            &farm.store,
            &store_b,
            &manager_b,
            indexer_a,
            indexer_b,
            &index_b,
        )
    } else {
        (
            &store_b,
            &farm.store,
            &farm.manager,
            indexer_b,
            indexer_a,
            &index_a,
        )
    };

    let found_promptly = async |store: &SqliteStore, page: &str| {
        save(
            store,
            page,
            "Getting the service running",
            "Unpack the archive on a Linux machine and start the wizard; it asks for a port.\n",
        );
        let wanted = format!("main:{page}");
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let out = ok(call_on(
                other_manager,
                "search_collections",
                json!({"query": "how do I install it", "limitSemanticResults": 20}),
                "alice",
            )
            .await);
            if block(&out, "Semantic").contains(&wanted) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{page} not found through the process that does not index:\n{out}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    // Saved through the process that does not index, then through the one that does.
    found_promptly(other_store, "Guides.ThroughTheOther").await;
    found_promptly(holder_store, "Guides.ThroughTheHolder").await;

    // The holder stops (releasing the lease): the other indexes from its next ask on.
    drop(holder);
    until("the other takes over", Duration::from_secs(15), &|| {
        !other_index.indexed_elsewhere()
    });
    found_promptly(other_store, "Guides.AfterTheHandOver").await;
    drop(other);
}
