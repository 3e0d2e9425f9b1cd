//! A real `wiki-mcp stdio` process stops within `--shutdown-timeout`: after SIGTERM while the
//! client keeps stdin open (a read of stdin blocks a thread the process must not wait for),
//! and after the end of stdin while a call waits on a lock in PostgreSQL.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::Needs;
use crate::cluster::Cluster;
use crate::served::{WIKI_MCP, init};

pub(crate) fn cases() -> Vec<(&'static str, Needs)> {
    vec![
        (
            "stdio_exits_within_the_shutdown_timeout_after_sigterm_with_stdin_still_open",
            Needs::Nothing(sigterm_with_stdin_open),
        ),
        (
            "stdio_cuts_a_blocked_call_at_the_shutdown_timeout_after_stdin_ends",
            Needs::PostgresPrograms(a_blocked_call_after_stdin_ends),
        ),
    ]
}

/// A `wiki-mcp stdio` process with `--shutdown-timeout 1`, initialized, its answers read on a
/// thread.
struct StdioProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

fn start(farm: &[&str]) -> StdioProcess {
    // No embedding model: what the tests time is the transport's stop, not an indexer step.
    let no_model = tempfile::tempdir().unwrap();
    let mut args = farm.to_vec();
    args.extend([
        "stdio",
        "--wiki",
        "main",
        "--user",
        "admin",
        "--shutdown-timeout",
        "1",
    ]);
    let mut child = Command::new(WIKI_MCP)
        .args(&args)
        .env("WIKI_MCP_LOG", "warn")
        .env("WIKI_MCP_MODEL_DIR", no_model.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (sender, lines) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let mut process = StdioProcess {
        stdin: child.stdin.take(),
        child,
        lines,
    };
    process.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "stop-test", "version": "1"}}}),
    );
    process.answer(1);
    process.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    process
}

impl StdioProcess {
    fn send(&mut self, message: &serde_json::Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// Waits (at most 60 s: the first start builds the farm) for the answer with `id`.
    fn answer(&self, id: u64) -> serde_json::Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer {id}"));
            let message: serde_json::Value = serde_json::from_str(&line).unwrap();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    /// Waits (at most `limit`) for the process to exit; how long it took.
    fn exited_within(&mut self, limit: Duration) -> Duration {
        let start = Instant::now();
        loop {
            if self.child.try_wait().unwrap().is_some() {
                return start.elapsed();
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("the stdio process did not exit within {limit:?}");
            }
            thread::sleep(Duration::from_millis(50));
        }
    }
}

fn sigterm_with_stdin_open() {
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().join("farm");
    let mut process = start(&["--data", data_dir.to_str().unwrap()]);
    process.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    assert!(process.answer(2)["result"]["tools"].is_array());
    let pid = process.child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    // stdin stays open (`process.stdin` is held): the process must not wait for it.
    process.exited_within(Duration::from_secs(6));
}

fn a_blocked_call_after_stdin_ends(bindir: &std::path::Path) {
    let cluster = Cluster::start_new(bindir);
    let url = cluster.url();
    init(&["--database", url.as_str()]);
    let mut process = start(&["--database", url.as_str()]);
    process.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    assert!(process.answer(2)["result"]["tools"].is_array());
    // The call's read waits on this lock (up to the store's 5 s lock timeout).
    let mut lock = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    lock.batch_execute("BEGIN; LOCK TABLE documents IN ACCESS EXCLUSIVE MODE")
        .unwrap();
    process.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "get_document", "arguments": {"reference": "Main.WebHome"}}}));
    thread::sleep(Duration::from_millis(300));
    drop(process.stdin.take());
    // One second of deadline; the lock would hold the call for more than four.
    let took = process.exited_within(Duration::from_secs(10));
    drop(lock);
    assert!(
        took < Duration::from_millis(3500),
        "the process took {took:?} to stop after stdin ended"
    );
}
