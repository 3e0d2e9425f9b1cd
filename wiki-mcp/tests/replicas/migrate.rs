//! `wiki-mcp --data DIR migrate --to URL`, end to end: a SQLite farm with every kind of content,
//! served once (so it has a link-signing key, a signed link and a token use), copied by the
//! real binary into an empty PostgreSQL database, then served from PostgreSQL and read through
//! MCP as an agent reads it: the same documents, history, translation, attachment versions,
//! objects, search, rights, trash and groups; the old token authenticates and the old link opens.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::json;

use crate::farm::{Answer, Replica, WIKI_MCP};
use crate::rich_farm::rich_farm;
use wiki_store::testing::scratch::ScratchDatabase;
use wiki_store::testing::{PostgresServer, backend_test};

/// `wiki-mcp args`, whatever its outcome.
fn run(args: &[&str]) -> Output {
    Command::new(WIKI_MCP)
        .args(args)
        .env("WIKI_MCP_LOG", "warn")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// `wiki-mcp args`, which must succeed; its stdout.
fn ok(args: &[&str]) -> String {
    let output = run(args);
    assert!(
        output.status.success(),
        "wiki-mcp {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A demo farm in `dir` with the rich content on top, the read tools enabled on main.
fn sqlite_farm(dir: &Path) -> String {
    let data = dir.to_str().unwrap();
    ok(&["--data", data, "init"]);
    let store = wiki_store::SqliteStore::open(dir).unwrap();
    let token = rich_farm(&store);
    drop(store);
    ok(&[
        "--data",
        data,
        "config",
        "set",
        "--wiki",
        "main",
        "tools=man,get_document,get_history,get_attachment,query_documents,query_objects",
        "links=on",
    ]);
    token
}

fn text(answer: Answer) -> String {
    answer.ok()
}

#[backend_test(only = "postgres")]
fn a_migrated_farm_serves_the_same_from_postgres(server: &PostgresServer) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let ada = sqlite_farm(dir.path());

    // Served from SQLite first: the link-signing key file is made, a link printed, a use of
    // ada's token recorded.
    let before = Replica::start(&format!("sqlite:{data}"));
    let read = text(before.call(&ada, "get_document", json!({"reference": "Docs.Guide"})));
    let link = read
        .lines()
        .find_map(|line| line.strip_prefix("URL: "))
        .unwrap_or_else(|| panic!("no link in: {read}"))
        .to_owned();
    let history_before = text(before.call(&ada, "get_history", json!({"reference": "Docs.Guide"})));
    drop(before);
    let tokens_before = ok(&["--data", data, "token", "list"]);

    let database = ScratchDatabase::empty(server);
    let url = database.url();
    let output = run(&["--data", data, "migrate", "--to", url]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("every count verified"), "{stdout}");
    assert!(stdout.contains("link-signing key"), "{stdout}");
    // Not a terminal: no bar, one count line instead.
    assert!(stderr.contains("migrate: copied "), "{stderr}");

    let after = Replica::start(url);
    let read = text(after.call(&ada, "get_document", json!({"reference": "Docs.Guide"})));
    assert!(read.contains("Final guide"), "{read}");
    let french = text(after.call(
        &ada,
        "get_document",
        json!({"reference": "Docs.Guide", "locale": "fr"}),
    ));
    assert!(french.contains("Guide final"), "{french}");
    let history = text(after.call(&ada, "get_history", json!({"reference": "Docs.Guide"})));
    // The same versions, authors, times and comments (links name each server's own address).
    let without_links = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|line| !line.contains("http://"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(without_links(&history), without_links(&history_before));
    assert!(history.contains("1.3"), "{history}");
    let attachment = text(after.call(
        &ada,
        "get_attachment",
        json!({"reference": "Docs.Guide", "filename": "notes.txt"}),
    ));
    assert!(attachment.contains("version two, longer"), "{attachment}");
    let objects = text(after.call(&ada, "query_objects", json!({"class": "Tasks.TaskClass"})));
    assert!(
        objects.contains("Ship") && objects.contains("Test"),
        "{objects}"
    );
    let found = text(after.call(&ada, "query_documents", json!({"query": "final guide"})));
    assert!(found.contains("Docs.Guide"), "{found}");

    // The link printed by the SQLite server opens on PostgreSQL.
    let (status, page) = after.get_on_this(&link);
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Final guide"), "{page}");

    // Rights came along: bert is denied the guide.
    let bert = ok(&["--database", url, "token", "create", "--user", "bert"]);
    let denied = after.call(
        bert.trim(),
        "get_document",
        json!({"reference": "Docs.Guide"}),
    );
    assert!(
        matches!(&denied, Answer::Result { is_error: true, text } if text.contains("permission")),
        "{denied:?}"
    );
    drop(after);

    // Tokens with their last use, the recycle bin, groups, wikis.
    let tokens_after = ok(&["--database", url, "token", "list"]);
    for line in tokens_before.lines() {
        assert!(
            tokens_after.contains(line),
            "{line} missing in {tokens_after}"
        );
    }
    assert!(ok(&["--database", url, "trash", "list", "--wiki", "main"]).contains("Docs.Old"));
    assert!(ok(&["--database", url, "group", "list"]).contains("editors: ada"));
    assert!(ok(&["--database", url, "wikis", "list"]).contains("archive"));
}

#[backend_test(only = "postgres")]
fn migrate_refuses_a_target_holding_a_farm(server: &PostgresServer) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    ok(&["--data", data, "init", "--empty"]);
    let database = ScratchDatabase::empty(server);
    ok(&["--database", database.url(), "init"]);
    let output = run(&["--data", data, "migrate", "--to", database.url()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("not empty"), "{stderr}");
    assert!(stderr.contains("empty database"), "{stderr}");
    // The demo farm there is untouched.
    assert!(ok(&["--database", database.url(), "user", "list"]).contains("alice"));
}
