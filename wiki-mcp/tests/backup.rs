//! Backups, restores and the farm's files as an operator meets them, through the real binary: a
//! backup taken while the server writes, restored and checked; `migrate` and `restore` refused
//! while a server serves the farm; the files the server creates readable by their owner alone.

// Helpers outside test functions panic on failure by design, like the tests they serve.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/listening.rs"]
mod listening;

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use tempfile::TempDir;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::{DocumentStore, SqliteStore};

const BINARY: &str = env!("CARGO_BIN_EXE_wiki-mcp");

/// `wiki-mcp --data DIR <args>`, none of the runner's `WIKI_MCP_*` variables.
fn command(data: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(BINARY);
    for (name, _) in std::env::vars() {
        if name.starts_with("WIKI_MCP_") {
            command.env_remove(name);
        }
    }
    command
        .arg("--data")
        .arg(data)
        .args(args)
        .env("WIKI_MCP_LOG", "warn")
        .stdin(Stdio::null());
    command
}

fn run(data: &Path, args: &[&str]) -> Output {
    command(data, args).output().unwrap()
}

fn ok(data: &Path, args: &[&str]) -> String {
    listening::succeeded(run(data, args), args)
}

/// The stderr of a command that must fail.
fn refused(data: &Path, args: &[&str]) -> String {
    let output = run(data, args);
    assert!(!output.status.success(), "wiki-mcp {args:?} succeeded");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A demo farm whose main wiki serves `write_document`; returns the admin's token.
fn farm(data: &Path) -> String {
    let init = ok(data, &["init"]);
    let token = init
        .lines()
        .find_map(|line| line.split_once("(shown once): ").map(|(_, token)| token))
        .unwrap_or_else(|| panic!("no token in: {init}"))
        .trim()
        .to_owned();
    ok(
        data,
        &[
            "config",
            "set",
            "--wiki",
            "main",
            "tools=man,get_document,write_document",
        ],
    );
    token
}

/// A `serve` process on the farm, killed when dropped.
struct Served {
    child: Child,
    address: SocketAddr,
}

impl Served {
    fn start(data: &Path, extra: &[&str]) -> Served {
        let mut serve = command(
            data,
            &["serve", "--listen", "127.0.0.1:0", "--rate-limit", "0"],
        );
        serve.args(extra);
        let (child, address) =
            listening::spawn_listening(serve.stderr(Stdio::null()), Duration::from_secs(60));
        Served { child, address }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `write_document` over HTTP as an agent calls it; panics unless it succeeded.
fn write(client: &reqwest::blocking::Client, address: SocketAddr, token: &str, number: usize) {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "write_document", "arguments": {
            "reference": format!("Backup.Page{number:05}"),
            "content": format!("Page number {number}."),
        }},
    });
    let response = client
        .post(format!("http://{address}/rest/wikis/main/aiLLM/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .body(body.to_string())
        .send()
        .unwrap();
    let answer: Value = serde_json::from_slice(&response.bytes().unwrap()).unwrap();
    assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
}

fn page(store: &SqliteStore, number: usize) -> Option<String> {
    let reference =
        DocumentReference::parse(&format!("Backup.Page{number:05}"), &WikiId::main()).unwrap();
    store
        .document(&reference, None)
        .unwrap()
        .map(|document| document.content)
}

#[test]
fn a_backup_taken_while_the_server_writes_restores_to_a_consistent_farm() {
    let dir = TempDir::new().unwrap();
    let data = dir.path().join("farm");
    let token = farm(&data);
    let served = Served::start(&data, &[]);

    // One writer, page after page, for as long as the backup takes and a little more.
    let written = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (written, stop, address) = (Arc::clone(&written), Arc::clone(&stop), served.address);
        std::thread::spawn(move || {
            let client = reqwest::blocking::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap();
            // Bounded: the test stops it long before.
            for number in 0..5000 {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                write(&client, address, &token, number);
                written.store(number + 1, Ordering::SeqCst);
            }
        })
    };
    while written.load(Ordering::SeqCst) < 20 {
        std::thread::sleep(Duration::from_millis(20));
    }
    let before = written.load(Ordering::SeqCst);
    let backup = dir.path().join("backup");
    let printed = ok(&data, &["backup", "--to", backup.to_str().unwrap()]);
    let after = written.load(Ordering::SeqCst);
    // The server went on writing after the backup, and the writer saw no error.
    while written.load(Ordering::SeqCst) < after + 5 {
        std::thread::sleep(Duration::from_millis(20));
    }
    stop.store(true, Ordering::SeqCst);
    writer.join().unwrap();
    assert!(printed.contains("restore --from"), "{printed}");

    let restored = dir.path().join("restored");
    ok(&restored, &["restore", "--from", backup.to_str().unwrap()]);
    let store = SqliteStore::open(&restored).unwrap();
    assert_eq!(store.integrity_check().unwrap(), Vec::<String>::new());
    // One snapshot: every page written before the backup began, then an unbroken run of the
    // pages written while it ran, and none after a gap.
    let present = (0..after + 5)
        .take_while(|&n| page(&store, n).is_some())
        .count();
    assert!(
        (before..=after).contains(&present),
        "{present} pages restored; {before} were written before the backup began, {after} by \
         its end"
    );
    assert!((present..after + 5).all(|n| page(&store, n).is_none()));
    assert_eq!(page(&store, 3).as_deref(), Some("Page number 3."));
    assert_eq!(
        std::fs::read(restored.join("link-signing.key")).unwrap(),
        std::fs::read(data.join("link-signing.key")).unwrap(),
        "links printed before the backup still open after the restore"
    );
}

#[test]
fn migrate_and_restore_refuse_a_served_farm_and_say_how_to_stop_the_server() {
    let dir = TempDir::new().unwrap();
    let data = dir.path().join("farm");
    farm(&data);
    let backup = dir.path().join("backup");
    ok(&data, &["backup", "--to", backup.to_str().unwrap()]);
    // Nothing listens on port 1: once past the farm's lock, migrate fails to connect.
    let target = "postgres://nobody@127.0.0.1:1/none";
    let served = Served::start(&data, &[]);

    let migrate = refused(&data, &["migrate", "--to", target]);
    assert!(migrate.contains("is being served"), "{migrate}");
    assert!(migrate.contains("stop that server first"), "{migrate}");
    assert!(migrate.contains("`wiki-mcp migrate` again"), "{migrate}");
    let restore = refused(
        &data,
        &["restore", "--replace", "--from", backup.to_str().unwrap()],
    );
    assert!(restore.contains("is being served"), "{restore}");

    drop(served);
    let migrate = refused(&data, &["migrate", "--to", target]);
    assert!(!migrate.contains("is being served"), "{migrate}");
    ok(
        &data,
        &["restore", "--replace", "--from", backup.to_str().unwrap()],
    );
}

#[test]
fn restore_replaces_a_farm_only_when_told_and_keeps_the_old_one_aside() {
    let dir = TempDir::new().unwrap();
    let data = dir.path().join("farm");
    farm(&data);
    let backup = dir.path().join("backup");
    ok(&data, &["backup", "--to", backup.to_str().unwrap()]);
    let again = refused(&data, &["backup", "--to", backup.to_str().unwrap()]);
    assert!(again.contains("is not empty"), "{again}");

    let refusal = refused(&data, &["restore", "--from", backup.to_str().unwrap()]);
    assert!(
        refusal.contains("already holds a farm: give --replace"),
        "{refusal}"
    );
    let printed = ok(
        &data,
        &["restore", "--replace", "--from", backup.to_str().unwrap()],
    );
    let aside = printed
        .split("the replaced farm's files are in ")
        .nth(1)
        .unwrap_or_else(|| panic!("{printed}"))
        .trim();
    assert!(Path::new(aside).join("wiki.db").is_file(), "{printed}");
    assert!(data.join("wiki.db").is_file());
    ok(&data, &["token", "list"]);

    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let refusal = refused(&data, &["restore", "--from", empty.to_str().unwrap()]);
    assert!(refusal.contains("holds no wiki.db"), "{refusal}");
    std::fs::write(empty.join("wiki.db"), b"not a database").unwrap();
    let refusal = refused(
        &data,
        &["restore", "--replace", "--from", empty.to_str().unwrap()],
    );
    assert!(refusal.contains("cannot"), "{refusal}");
    ok(&data, &["token", "list"]);
}

#[test]
fn a_postgres_farm_is_backed_up_with_pg_dump() {
    let dir = TempDir::new().unwrap();
    let refusal = refused(
        dir.path(),
        &[
            "--database",
            "postgres://nobody@127.0.0.1:1/none",
            "backup",
            "--to",
            dir.path().join("b").to_str().unwrap(),
        ],
    );
    assert!(refusal.contains("pg_dump"), "{refusal}");
}

#[cfg(unix)]
#[test]
fn the_files_a_server_and_a_backup_create_are_their_owner_s_alone() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    let dir = TempDir::new().unwrap();
    let data = dir.path().join("farm");
    let log = dir.path().join("wiki-mcp.log");
    let served = Served::start(&data, &["--log-file", log.to_str().unwrap()]);
    let backup = dir.path().join("backup");
    ok(&data, &["backup", "--to", backup.to_str().unwrap()]);
    for path in [&data, &backup] {
        assert_eq!(mode(path), 0o700, "{}", path.display());
    }
    for name in [
        "wiki.db",
        "wiki.db-wal",
        "wiki.db-shm",
        "link-signing.key",
        "serving.lock",
    ] {
        assert_eq!(mode(&data.join(name)), 0o600, "{name}");
    }
    for name in ["wiki.db", "link-signing.key"] {
        assert_eq!(mode(&backup.join(name)), 0o600, "backup/{name}");
    }
    assert_eq!(mode(&log), 0o600, "the log file");
    drop(served);
}
