//! Setting a PostgreSQL farm up from the command line: `init` once, every command on the same
//! URL, and a password that never shows.

use std::process::{Command, Stdio};

use crate::farm::{Farm, WIKI_MCP};
use wiki_store::testing::scratch::ScratchDatabase;
use wiki_store::testing::{PostgresServer, backend_test};

/// Runs `wiki-mcp --database url args`; its success and its stdout and stderr.
fn run(url: &str, args: &[&str]) -> (bool, String) {
    let output = Command::new(WIKI_MCP)
        .arg("--database")
        .arg(url)
        .args(args)
        .env("WIKI_MCP_LOG", "info")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

#[backend_test(only = "postgres")]
fn init_refuses_a_database_that_holds_a_farm(server: &PostgresServer) {
    let farm = Farm::create(server);
    let (ok, output) = run(&farm.url, &["init", "--empty"]);
    assert!(!ok, "{output}");
    assert!(output.contains("already holds a farm"), "{output}");
    // The farm is untouched: the demo users are still there.
    assert!(farm.admin(&["user", "list"]).contains("alice"));
}

#[backend_test(only = "postgres")]
fn commands_on_a_database_without_a_farm_say_to_run_init(server: &PostgresServer) {
    let database = ScratchDatabase::empty(server);
    for args in [
        &["token", "list"][..],
        &["serve", "--listen", "127.0.0.1:0"],
    ] {
        let (ok, output) = run(database.url(), args);
        assert!(!ok, "{output}");
        assert!(output.contains("holds no farm yet"), "{output}");
        assert!(output.contains("init"), "{output}");
    }
    let (ok, output) = run(database.url(), &["init", "--empty"]);
    assert!(ok, "{output}");
    let (ok, users) = run(database.url(), &["user", "list"]);
    assert!(
        ok && users.contains("admin") && !users.contains("alice"),
        "{users}"
    );
}

/// A database that does not answer: the command fails naming it, its password replaced, in
/// the error and in every log line. Needs no server.
// Needs no server: runs once, among the SQLite trials.
#[backend_test(only = "sqlite")]
fn a_password_never_shows_in_errors_or_logs() {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    let url = "postgres://wiki:hunter2secret@127.0.0.1:1/farm";
    for args in [&["token", "list"][..], &["init"]] {
        let (ok, output) = run(url, args);
        assert!(!ok, "{output}");
        assert!(!output.contains("hunter2secret"), "{output}");
        assert!(output.contains("wiki:***@127.0.0.1:1/farm"), "{output}");
        assert!(output.contains("is the server running"), "{output}");
    }
    let (ok, output) = run("mysql://root:hunter2secret@db/farm", &["token", "list"]);
    assert!(!ok && !output.contains("hunter2secret"), "{output}");
    assert!(output.contains("--database takes postgres://"), "{output}");
}
