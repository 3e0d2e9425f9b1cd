//! The search-text sanitizer: where an agent's query text becomes FTS5 input
//! (`wiki_store::sqlite::__fuzz_match_expression`, used by every search).
//!
//! The property is that the text never reaches FTS5 as syntax, checked two ways on real FTS5:
//! - against an in-memory FTS5 table with the store's own tokenizer, holding one row whose
//!   content is the query text itself: the expression must be valid FTS5 (no syntax error, no
//!   unknown column) and must match that row. Operators leaking through (`NOT`, `-`, `^`, a
//!   column filter, `NEAR`) make the text fail to find itself, or fail outright;
//! - through the public store API, on a real SQLite store with a few documents: the search
//!   (candidates, ranking, snippets) must answer, never fail.
#![no_main]

use std::sync::{LazyLock, Mutex, PoisonError};

use libfuzzer_sys::fuzz_target;
use rusqlite::Connection;
use wiki_store::model::document::DocumentSave;
use wiki_store::model::search::{SearchQuery, WikiScope};
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::sqlite::__fuzz_match_expression as match_expression;
use wiki_store::{DocumentStore, SearchStore, SqliteStore};

/// The migration that creates the store's full-text table: the fuzz table copies its tokenizer.
const CORE_SCHEMA: &str = include_str!("../../wiki-store/src/sqlite/sql/0001_core.sql");

/// `tokenize = '...'` of `documents_fts`, as the store declares it.
fn store_tokenizer() -> &'static str {
    let table = CORE_SCHEMA
        .split("CREATE VIRTUAL TABLE documents_fts USING fts5")
        .nth(1)
        .expect("0001_core.sql creates documents_fts");
    let declaration = table.split(");").next().unwrap_or(table);
    let option = declaration
        .split("tokenize = '")
        .nth(1)
        .expect("documents_fts declares its tokenizer");
    option.split('\'').next().unwrap_or(option)
}

struct Fixture {
    fts: Connection,
    store: SqliteStore,
    _dir: tempfile::TempDir,
}

static FIXTURE: LazyLock<Mutex<Fixture>> = LazyLock::new(|| {
    let fts = Connection::open_in_memory().expect("in-memory SQLite");
    fts.execute_batch(&format!(
        "CREATE VIRTUAL TABLE t USING fts5 (title, content, tokenize = '{}')",
        store_tokenizer()
    ))
    .expect("FTS5 table with the store's tokenizer");
    let dir = tempfile::tempdir().expect("temporary directory");
    let store = SqliteStore::open(dir.path().join("store")).expect("store");
    let pages = [
        (
            "Sandbox.Welcome",
            "Welcome",
            "Hello, wiki! Search for *stars* and NEAR things.",
        ),
        (
            "Guides.Install",
            "Installing",
            "Build with `cargo build --release`; run serve.",
        ),
        (
            "Notes.Quotes",
            "Quotes \"and\" AND",
            "He said \"NOT now\" (column: title) ^start",
        ),
        (
            "Notes.Unicode",
            "Ünïcödé",
            "Straße, café, 東京, emoji 🎉 and tabs\tend",
        ),
    ];
    for (reference, title, content) in pages {
        let reference = DocumentReference::parse(reference, &WikiId::main()).expect("reference");
        store
            .save_document(&DocumentSave::new(reference, content, "fuzz").title(title))
            .expect("seed document");
    }
    Mutex::new(Fixture {
        fts,
        store,
        _dir: dir,
    })
});

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let fixture = FIXTURE.lock().unwrap_or_else(PoisonError::into_inner);

    if let Some((expression, terms)) = match_expression(text) {
        assert!(!terms.is_empty());
        let fts = &fixture.fts;
        fts.execute("DELETE FROM t", []).expect("clear");
        fts.execute("INSERT INTO t (title, content) VALUES ('', ?1)", [text])
            .expect("insert the query text");
        let matched: Result<i64, _> = fts.query_row(
            "SELECT count(*) FROM t WHERE t MATCH ?1",
            [&expression],
            |row| row.get(0),
        );
        match matched {
            Ok(count) => assert_eq!(
                count, 1,
                "{text:?} as {expression:?} does not find a document holding exactly it"
            ),
            Err(error) => panic!("{text:?} reached FTS5 as {expression:?}: {error}"),
        }
        let snippet: Result<String, _> = fts.query_row(
            "SELECT snippet(t, 1, '[', ']', '…', 32) FROM t WHERE t MATCH ?1",
            [&expression],
            |row| row.get(0),
        );
        if let Err(error) = snippet {
            panic!("snippet of {text:?} as {expression:?}: {error}");
        }
    }

    let query = SearchQuery::new(Some(text.to_owned()), WikiScope::All);
    if let Err(error) = fixture.store.search(&query, &mut |_| true) {
        panic!("search for {text:?} failed: {error:?}");
    }
});
