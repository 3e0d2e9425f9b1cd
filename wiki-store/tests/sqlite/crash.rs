//! Crash safety: a writer process killed with SIGKILL in the middle of a stream of saves.
//!
//! The child is this test binary re-executed on `writer_stream`, with the data directory in an
//! environment variable; it saves forever and prints one line per committed save. Run normally
//! (no variable), `writer_stream` writes a short stream in-process and checks it.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use wiki_store::model::document::DocumentSave;
use wiki_store::model::search::{SearchQuery, WikiScope};
use wiki_store::model::version::Version;
use wiki_store::{DocumentStore, SearchStore, SqliteStore};

use crate::harness::reference;

const CHILD_DIR: &str = "WIKI_STORE_CRASH_CHILD_DIR";
const PAGES: usize = 20;

fn content(i: usize) -> String {
    format!(
        "entry {i} marker{i}x\n{}",
        "filler text for a realistic page body. ".repeat(i % 7 * 20)
    )
}

/// Saves entries `0..limit` (forever without a limit), printing `<i> <reference> <version>` after
/// each commit.
fn stream(dir: &Path, limit: Option<usize>, out: &mut impl Write) {
    let store = SqliteStore::open(dir).unwrap();
    for i in 0.. {
        if limit == Some(i) {
            break;
        }
        let page = reference(&format!("Crash.Page{:02}", i % PAGES));
        let save =
            DocumentSave::new(page.clone(), content(i), "writer").title(format!("Entry {i}"));
        let version = store.save_document(&save).unwrap().version();
        writeln!(out, "{i} {} {version}", page.local()).unwrap();
        out.flush().unwrap();
    }
}

/// Checks that every reported commit is present and the search index agrees with the documents.
fn verify(dir: &Path, committed: &[(usize, String, Version)]) {
    let store = SqliteStore::open(dir).unwrap();
    assert_eq!(store.integrity_check().unwrap(), Vec::<String>::new());
    for (i, page, version) in committed {
        let revision = store.revision(&reference(page), None, *version).unwrap();
        let revision = revision.unwrap_or_else(|| panic!("committed {page} {version} is missing"));
        assert_eq!(revision.content, content(*i));
    }
    for n in 0..PAGES {
        let page = reference(&format!("Crash.Page{n:02}"));
        let Some(doc) = store.document(&page, None).unwrap() else {
            continue;
        };
        let marker = doc.content.split_whitespace().nth(2).unwrap().to_owned();
        let results = store
            .search(
                &SearchQuery::new(Some(marker.clone()), WikiScope::All),
                &mut |_| true,
            )
            .unwrap();
        let found: Vec<_> = results
            .hits
            .iter()
            .map(|h| &h.candidate.reference)
            .collect();
        assert_eq!(found, [&page], "the index finds {marker} on its page only");
    }
}

fn parse(line: &str) -> Option<(usize, String, Version)> {
    let mut parts = line.split(' ');
    let i = parts.next()?.parse().ok()?;
    let page = parts.next()?.to_owned();
    let version = parts.next()?.parse().ok()?;
    parts.next().is_none().then_some((i, page, version))
}

#[test]
fn writer_stream() {
    if let Some(dir) = std::env::var_os(CHILD_DIR) {
        stream(Path::new(&dir), None, &mut std::io::stdout().lock());
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut out = Vec::new();
    stream(dir.path(), Some(60), &mut out);
    let committed: Vec<_> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| parse(l).unwrap())
        .collect();
    assert_eq!(committed.len(), 60);
    assert_eq!(
        committed[59].2.to_string(),
        "1.3",
        "the third save of its page"
    );
    verify(dir.path(), &committed);
}

#[test]
fn a_writer_killed_mid_stream_leaves_every_commit_and_a_consistent_index() {
    const BEFORE_KILL: usize = 300;
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "crash::writer_stream",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_DIR, dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut committed = Vec::new();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    while committed.len() < BEFORE_KILL {
        let line = lines
            .next()
            .expect("the child stopped before it was killed")
            .unwrap();
        committed.extend(parse(&line));
    }
    // SIGKILL while the child keeps writing: no destructor, no checkpoint, no clean close.
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success());
    verify(dir.path(), &committed);
}
