//! Store benchmarks, each against a peer doing the same work in the same run:
//!
//! - `search_100k`: our `SearchStore::search` on a 100,000-page generated wiki vs. the equivalent
//!   raw FTS5 statement (same MATCH expression, filters, ranking, scan limit and page snippets) on
//!   the same file through a plain rusqlite connection, ordered by bm25 (`raw_fts5`) and by the
//!   earlier caller-independent score that ignored how often a word occurs (`raw_presence`).
//! - `save`: `DocumentStore::save_document` (an update of an existing page) vs. the raw
//!   statements of a save (lookups, row update, revision, links, change sequence, FTS through the
//!   triggers) in one IMMEDIATE transaction; throughput in documents/s, single writer.
//! - `read`: `DocumentStore::document` by reference vs. the raw row and translations selects
//!   (and, on PostgreSQL, vs. the round trip of a prepared `SELECT 1`: the floor of any read).
//!
//! The 100k wiki is generated once and cached under Cargo's target tmp dir;
//! `WIKI_STORE_BENCH_PAGES` changes its size (the cache is per size); `WIKI_STORE_BENCH_PEER_FIRST`
//! measures the search peers before our calls, to check for order bias.
//!
//! With `WIKI_MCP_TEST_DATABASE` set (`tests/postgres/with-cluster.sh cargo bench -p wiki-store
//! --bench store`), each group also measures `PostgresStore` doing the same work on the same
//! generated corpus (`postgres/...`), to report PostgreSQL's ratio to SQLite: the corpus is
//! generated once per server into the database `wiki_store_bench_<pages>_v<version>`, saves go to
//! a scratch database. Without the variable the PostgreSQL rows are skipped, saying so.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rusqlite::{Connection, OpenFlags, TransactionBehavior, params};
use wiki_store::generate::{SyntheticWiki, generate};
use wiki_store::model::document::DocumentSave;
use wiki_store::model::search::{SearchQuery, WikiScope};
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::sqlite::DATABASE_FILE;
use wiki_store::{DocumentStore, PostgresStore, SearchStore, SqliteStore, StoreConfig};

/// Bumped when the generator's output changes, so a stale cache is not reused.
const CACHE_VERSION: u32 = 1;

fn pages() -> usize {
    std::env::var("WIKI_STORE_BENCH_PAGES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000)
}

fn spec() -> SyntheticWiki {
    SyntheticWiki {
        pages: pages(),
        ..SyntheticWiki::default()
    }
}

/// Opens the cached generated wiki, generating it on first use.
fn generated_wiki() -> (PathBuf, SqliteStore) {
    let base = option_env!("CARGO_TARGET_TMPDIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let dir = base.join(format!("wiki-store-bench-{}-v{CACHE_VERSION}", pages()));
    let done = dir.join("complete");
    if !done.exists() {
        let _ = std::fs::remove_dir_all(&dir);
        let store = SqliteStore::open(&dir).expect("open the bench store");
        let started = std::time::Instant::now();
        let saved = generate(&store, &spec(), "generator").expect("generate the bench wiki");
        eprintln!(
            "generated {saved} pages in {:.1?} at {}",
            started.elapsed(),
            dir.display()
        );
        std::fs::write(&done, b"").expect("mark the bench wiki complete");
    }
    let store = SqliteStore::open(&dir).expect("open the bench store");
    (dir, store)
}

/// The variable naming the PostgreSQL server to measure against.
const DATABASE_VAR: &str = "WIKI_MCP_TEST_DATABASE";

/// The server's URL, or `None` (said once per group) when it is not set.
fn postgres_server(group: &str) -> Option<String> {
    let server = std::env::var(DATABASE_VAR)
        .ok()
        .filter(|url| !url.trim().is_empty());
    if server.is_none() {
        eprintln!("{group}: postgres rows skipped, {DATABASE_VAR} is not set");
    }
    server
}

/// `server` with its database replaced by `name` (URL form).
fn database_url(server: &str, name: &str) -> String {
    let scheme_end = server.find("://").map_or(0, |at| at + 3);
    let (head, query) = server.split_once('?').unwrap_or((server, ""));
    let path_start = head[scheme_end..]
        .find('/')
        .map_or(head.len(), |slash| scheme_end + slash);
    let mut url = format!("{}/{name}", &head[..path_start]);
    if !query.is_empty() {
        url.push('?');
        url.push_str(query);
    }
    url
}

/// A database of the server, created afresh when `fresh` or when it does not exist.
fn postgres_database(server: &str, name: &str, fresh: bool) -> String {
    let mut admin = postgres::Client::connect(server, postgres::NoTls).expect("the bench server");
    let exists = admin
        .query_opt("SELECT 1 FROM pg_database WHERE datname = $1", &[&name])
        .expect("look the database up")
        .is_some();
    if fresh || !exists {
        admin
            .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .expect("drop");
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create");
    }
    database_url(server, name)
}

/// The generated wiki on PostgreSQL, the same corpus as [`generated_wiki`], generated once per
/// server (a `bench_complete` table marks it done).
fn generated_postgres(server: &str) -> PostgresStore {
    let name = format!("wiki_store_bench_{}_v{CACHE_VERSION}", pages());
    let url = postgres_database(server, &name, false);
    let mut check = postgres::Client::connect(&url, postgres::NoTls).expect("the bench database");
    let complete = check
        .query_opt(
            "SELECT 1 FROM pg_tables WHERE tablename = 'bench_complete'",
            &[],
        )
        .expect("check")
        .is_some();
    if !complete {
        drop(check);
        let url = postgres_database(server, &name, true);
        let store = PostgresStore::connect_with(&url, StoreConfig::default()).expect("connect");
        let started = std::time::Instant::now();
        let saved = generate(&store, &spec(), "generator").expect("generate the bench wiki");
        eprintln!(
            "generated {saved} pages on PostgreSQL in {:.1?}",
            started.elapsed()
        );
        let mut mark = postgres::Client::connect(&url, postgres::NoTls).expect("mark");
        mark.batch_execute("VACUUM ANALYZE").expect("analyze");
        mark.batch_execute("CREATE TABLE bench_complete ()")
            .expect("mark the bench wiki complete");
    }
    PostgresStore::connect_with(&database_url(server, &name), StoreConfig::default())
        .expect("connect")
}

fn raw_reader(dir: &std::path::Path) -> Connection {
    let conn =
        Connection::open_with_flags(dir.join(DATABASE_FILE), OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("open a raw reader");
    conn.set_prepared_statement_cache_capacity(64);
    conn
}

/// How a raw search orders its candidates.
#[derive(Clone, Copy)]
enum RawOrder {
    /// FTS5's bm25, whose statistics cover the whole index.
    Bm25,
    /// The caller-independent order before occurrences counted: a word in the title five, in
    /// the content one, then the shorter content, then the row id.
    Presence,
}

/// The search our store runs, written out by hand: every word quoted, candidates in `order` up
/// to the scan limit, then a snippet for each of the first ten.
fn raw_search(
    conn: &Connection,
    words: &str,
    order: RawOrder,
) -> (usize, Vec<(String, String, String, String)>) {
    let quoted: Vec<String> = words
        .split_whitespace()
        .map(|w| format!("\"{w}\""))
        .collect();
    let expression = quoted.join(" ");
    let (score, mut values) = match order {
        RawOrder::Bm25 => ("documents_fts.rank".to_owned(), Vec::new()),
        RawOrder::Presence => {
            let in_column = "d.id IN (SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?)";
            let mut terms = Vec::new();
            let mut values = Vec::new();
            for word in &quoted {
                terms.push(format!("5 * ({in_column}) + ({in_column})"));
                values.push(format!("{{title}} : {word}"));
                values.push(format!("{{content}} : {word}"));
            }
            (format!("({})", terms.join(" + ")), values)
        }
    };
    let order_by = match order {
        RawOrder::Bm25 => "11",
        RawOrder::Presence => "11 DESC, octet_length(d.content), d.id",
    };
    values.push(expression.clone());
    values.push("main".to_owned());
    let mut stmt = conn
        .prepare_cached(&format!(
            "SELECT d.id, d.wiki, d.space, d.name, d.locale, d.language, d.title, d.author, d.updated_ms, d.hidden, \
             {score} FROM documents_fts JOIN documents d ON d.id = documents_fts.rowid \
             WHERE documents_fts MATCH ? AND d.wiki IN (?) AND d.hidden = 0 \
             ORDER BY {order_by} LIMIT 2001"
        ))
        .expect("prepare");
    let rows: Vec<(i64, String, String, String, String)> = stmt
        .query_map(rusqlite::params_from_iter(values), |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(6)?,
            ))
        })
        .expect("query")
        .collect::<rusqlite::Result<_>>()
        .expect("rows");
    let total = rows.len().min(2000);
    let mut snippet = conn
        .prepare_cached(
            "SELECT snippet(documents_fts, 1, char(2), char(3), '…', 32) FROM documents_fts \
             WHERE documents_fts MATCH ?1 AND rowid = ?2",
        )
        .expect("prepare");
    let page = rows
        .into_iter()
        .take(10)
        .map(|(id, wiki, space, name, _title)| {
            let text: String = snippet
                .query_row(params![expression, id], |row| row.get(0))
                .expect("snippet");
            (wiki, space, name, text)
        })
        .collect();
    (total, page)
}

fn search_100k(c: &mut Criterion) {
    let (dir, store) = generated_wiki();
    let raw = raw_reader(&dir);
    let postgres = postgres_server("search_100k").map(|server| generated_postgres(&server));
    let mut group = c.benchmark_group("search_100k");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    // A word on about half the pages, two common words, and a word on one page.
    for words in ["budget", "budget review", "page4242"] {
        let query = SearchQuery::new(
            Some(words.to_owned()),
            WikiScope::Only(vec![WikiId::main()]),
        );
        let ours = store.search(&query, &mut |_| true).expect("search");
        let (raw_total, _) = raw_search(&raw, words, RawOrder::Bm25);
        assert_eq!(
            ours.total, raw_total,
            "the peer does the same work for {words:?}"
        );
        // Warm both connections and the OS page cache first. Criterion measures one function
        // after the other, and on a busy machine the order itself showed a bias of up to 20% on
        // small queries: WIKI_STORE_BENCH_PEER_FIRST runs the peer first, to check both orders.
        for _ in 0..5 {
            black_box(store.search(&query, &mut |_| true).expect("search"));
            black_box(raw_search(&raw, words, RawOrder::Bm25));
            black_box(raw_search(&raw, words, RawOrder::Presence));
        }
        if let Some(postgres) = &postgres {
            let theirs = postgres.search(&query, &mut |_| true).expect("search");
            assert_eq!(
                (theirs.total, theirs.hits.len()),
                (ours.total, ours.hits.len()),
                "PostgreSQL does the same work for {words:?}"
            );
            for _ in 0..5 {
                black_box(postgres.search(&query, &mut |_| true).expect("search"));
            }
            group.bench_function(format!("postgres/{words}"), |b| {
                b.iter(|| {
                    black_box(
                        postgres
                            .search(black_box(&query), &mut |_| true)
                            .expect("search"),
                    )
                })
            });
        }
        let order = if std::env::var_os("WIKI_STORE_BENCH_PEER_FIRST").is_some() {
            [false, true]
        } else {
            [true, false]
        };
        for ours_now in order {
            if ours_now {
                group.bench_function(format!("store/{words}"), |b| {
                    b.iter(|| {
                        black_box(
                            store
                                .search(black_box(&query), &mut |_| true)
                                .expect("search"),
                        )
                    })
                });
            } else {
                group.bench_function(format!("raw_fts5/{words}"), |b| {
                    b.iter(|| black_box(raw_search(&raw, black_box(words), RawOrder::Bm25)))
                });
                group.bench_function(format!("raw_presence/{words}"), |b| {
                    b.iter(|| black_box(raw_search(&raw, black_box(words), RawOrder::Presence)))
                });
            }
        }
    }
    group.finish();
}

fn save(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path()).expect("open");
    let wiki = WikiId::main();
    let ours = DocumentReference::parse("Bench.Ours", &wiki).expect("reference");
    let theirs = DocumentReference::parse("Bench.Raw", &wiki).expect("reference");
    let body =
        "A page body of realistic size with [a link](Bench.Other) and some words. ".repeat(20);
    store
        .save_document(&DocumentSave::new(ours.clone(), body.clone(), "bench"))
        .expect("seed");
    store
        .save_document(&DocumentSave::new(theirs, body.clone(), "bench"))
        .expect("seed");
    let mut raw = Connection::open(dir.path().join(DATABASE_FILE)).expect("raw writer");
    raw.pragma_update(None, "synchronous", "NORMAL")
        .expect("pragma");
    raw.busy_timeout(Duration::from_secs(5))
        .expect("busy timeout");
    let raw_id: i64 = raw
        .query_row(
            "SELECT id FROM documents WHERE space = 'Bench' AND name = 'Raw'",
            [],
            |row| row.get(0),
        )
        .expect("raw row");

    let mut group = c.benchmark_group("save");
    group
        .throughput(Throughput::Elements(1))
        .sample_size(30)
        .measurement_time(Duration::from_secs(6));
    let mut n = 0u64;
    group.bench_function("store", |b| {
        b.iter(|| {
            n += 1;
            let save =
                DocumentSave::new(ours.clone(), format!("{body}{n}"), "bench").comment("bench");
            black_box(store.save_document(&save).expect("save"))
        })
    });
    // The statements a save runs, without the store around them: wiki and row lookups, the row
    // update, the revision, the links (delete and insert) and the change sequence.
    let mut m = 0u64;
    group.bench_function("raw_sql", |b| {
        b.iter(|| {
            m += 1;
            let content = format!("{body}{m}");
            let tx = raw.transaction_with_behavior(TransactionBehavior::Immediate).expect("begin");
            tx.prepare_cached("SELECT 1 FROM wikis WHERE id = 'main'")
                .and_then(|mut s| s.query_row([], |_| Ok(())))
                .expect("wiki");
            let current: (i64, String) = tx
                .prepare_cached("SELECT id, content FROM documents WHERE wiki = 'main' AND space = 'Bench' AND name = 'Raw' AND locale = ''")
                .and_then(|mut s| s.query_row([], |row| Ok((row.get(0)?, row.get(1)?))))
                .expect("row");
            let (major, minor): (i64, i64) = tx
                .prepare_cached(
                    "UPDATE documents SET content = ?2, author = 'bench', updated_ms = ?3, \
                     version_minor = version_minor + 1 WHERE id = ?1 RETURNING version_major, version_minor",
                )
                .and_then(|mut s| s.query_row(params![current.0, content, m as i64], |row| Ok((row.get(0)?, row.get(1)?))))
                .expect("update");
            tx.prepare_cached(
                "INSERT INTO revisions (document_id, major, minor, title, content, syntax, hidden, author, comment, \
                 saved_ms) VALUES (?1, ?2, ?3, '', ?4, 'markdown/1.0', 0, 'bench', 'bench', ?5)",
            )
            .and_then(|mut s| s.execute(params![raw_id, major, minor, content, m as i64]))
            .expect("revision");
            tx.prepare_cached("DELETE FROM links WHERE source_id = ?1")
                .and_then(|mut s| s.execute([raw_id]))
                .expect("links");
            tx.prepare_cached(
                "INSERT INTO links (source_id, position, target_wiki, target_space, target_name, attachment) \
                 VALUES (?1, 0, 'main', 'Bench', 'Other', NULL)",
            )
            .and_then(|mut s| s.execute([raw_id]))
            .expect("link");
            tx.prepare_cached("UPDATE change_seq SET value = value + 1 WHERE id = 1")
                .and_then(|mut s| s.execute([]))
                .expect("change seq");
            tx.commit().expect("commit");
        })
    });
    if let Some(server) = postgres_server("save") {
        let url = postgres_database(&server, "wiki_store_bench_save", true);
        let postgres = PostgresStore::connect_with(&url, StoreConfig::default()).expect("connect");
        postgres
            .save_document(&DocumentSave::new(ours.clone(), body.clone(), "bench"))
            .expect("seed");
        let mut p = 0u64;
        group.bench_function("postgres", |b| {
            b.iter(|| {
                p += 1;
                let save =
                    DocumentSave::new(ours.clone(), format!("{body}{p}"), "bench").comment("bench");
                black_box(postgres.save_document(&save).expect("save"))
            })
        });
    }
    group.finish();
}

fn read(c: &mut Criterion) {
    let (dir, store) = generated_wiki();
    let raw = raw_reader(&dir);
    let reference = spec().page(4242 % pages().max(1)).expect("reference");
    let space = reference.space().to_string();
    let postgres_url = postgres_server("read");
    let postgres = postgres_url.as_deref().map(generated_postgres);
    let mut group = c.benchmark_group("read");
    group
        .sample_size(50)
        .measurement_time(Duration::from_secs(4));
    group.bench_function("store", |b| {
        b.iter(|| {
            black_box(
                store
                    .document(black_box(&reference), None)
                    .expect("read")
                    .expect("exists"),
            )
        })
    });
    group.bench_function("raw_sql", |b| {
        b.iter(|| {
            let row: (i64, String, String, i64, i64) = raw
                .prepare_cached(
                    "SELECT id, title, content, version_major, version_minor FROM documents \
                     WHERE wiki = ?1 AND space = ?2 AND name = ?3 AND locale = ''",
                )
                .expect("prepare")
                .query_row(params!["main", space, reference.name()], |row| {
                    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?))
                })
                .expect("row");
            let translations: Vec<String> = raw
                .prepare_cached(
                    "SELECT locale FROM documents WHERE wiki = ?1 AND space = ?2 AND name = ?3 AND locale <> '' \
                     ORDER BY locale",
                )
                .expect("prepare")
                .query_map(params!["main", space, reference.name()], |row| row.get(0))
                .expect("query")
                .collect::<rusqlite::Result<_>>()
                .expect("rows");
            black_box((row, translations))
        })
    });
    if let Some(postgres) = &postgres {
        let theirs = postgres
            .document(&reference, None)
            .expect("read")
            .expect("exists");
        let ours = store
            .document(&reference, None)
            .expect("read")
            .expect("exists");
        assert_eq!(theirs.content, ours.content, "the same corpus");
        group.bench_function("postgres", |b| {
            b.iter(|| {
                black_box(
                    postgres
                        .document(black_box(&reference), None)
                        .expect("read")
                        .expect("exists"),
                )
            })
        });
    }
    if let Some(server) = &postgres_url {
        // The floor of any read over the socket: one prepared statement that does no work, on
        // a connection of the same server. A read cannot come closer to SQLite's in-process one
        // than this round trip, so BENCHMARKS.md reports the read against it as well.
        let mut client = postgres::Client::connect(server, postgres::NoTls).expect("connect");
        let statement = client.prepare("SELECT 1").expect("prepare");
        group.bench_function("postgres_round_trip", |b| {
            b.iter(|| black_box(client.query_one(&statement, &[]).expect("round trip")))
        });
    }
    group.finish();
}

criterion_group!(benches, search_100k, save, read);
criterion_main!(benches);
