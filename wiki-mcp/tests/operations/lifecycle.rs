//! SIGTERM against a real `wiki-mcp serve`: it stops accepting, answers a new request on an
//! open connection 503 `shutting-down`, lets a call in flight finish, and at the deadline
//! cancels one still running (audited `cancelled`) and exits.
//!
//! A call is kept in flight by a lock the test holds on the documents table of the farm's
//! PostgreSQL database (a cluster of the test's own): the call's read waits on it (up to the
//! store's 5 s lock timeout).

use std::path::Path;
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::Needs;
use crate::cluster::Cluster;
use crate::served::{Served, init, within};

pub(crate) fn cases() -> Vec<(&'static str, Needs)> {
    vec![
        (
            "after_sigterm_a_call_in_flight_finishes_and_new_requests_get_503",
            Needs::PostgresPrograms(a_call_in_flight_finishes),
        ),
        (
            "at_the_shutdown_deadline_a_call_still_running_is_cancelled_and_audited",
            Needs::PostgresPrograms(a_call_past_the_deadline_is_cancelled),
        ),
    ]
}

/// A farm on its own cluster, served with `--shutdown-timeout timeout` and its log in a file.
struct Setup {
    _cluster: Cluster,
    url: String,
    token: String,
    served: Served,
    log: tempfile::NamedTempFile,
}

fn setup(bindir: &Path, timeout: &str) -> Setup {
    let cluster = Cluster::start_new(bindir);
    let url = cluster.url();
    let farm = ["--database", url.as_str()];
    let token = init(&farm);
    let log = tempfile::NamedTempFile::new().unwrap();
    let log_path = log.path().to_str().unwrap().to_owned();
    // Served without the embedding model: what keeps a call in flight here is the lock, and
    // the exit the tests time is the calls', not an indexer step's on a busy machine.
    let no_model = tempfile::tempdir().unwrap();
    let served = Served::start_with_env(
        &["--log-file", &log_path, "--database", url.as_str()],
        &["--shutdown-timeout", timeout, "--log", "info"],
        &[("WIKI_MCP_MODEL_DIR", no_model.path().to_str().unwrap())],
    );
    // The wiki's server is built (its configuration read from the documents table) before the
    // test locks that table: the call must wait in the tool, not in the endpoint's lookup.
    let listed = served
        .client
        .post(format!(
            "http://{}/rest/wikis/main/aiLLM/mcp",
            served.address
        ))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .body(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string())
        .send()
        .unwrap();
    assert_eq!(listed.status(), 200);
    Setup {
        _cluster: cluster,
        url,
        token,
        served,
        log,
    }
}

/// Holds `ACCESS EXCLUSIVE` on the documents table until the returned client is dropped.
fn lock_documents(url: &str) -> postgres::Client {
    let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
    client
        .batch_execute("BEGIN; LOCK TABLE documents IN ACCESS EXCLUSIVE MODE")
        .unwrap();
    client
}

/// Starts `get_document` on a thread of its own: its answer's status (or `None` when the
/// connection was dropped) when it ends.
fn call_in_background(setup: &Setup) -> thread::JoinHandle<Option<u16>> {
    let endpoint = format!("http://{}/rest/wikis/main/aiLLM/mcp", setup.served.address);
    let token = setup.token.clone();
    thread::spawn(move || {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "get_document", "arguments": {"reference": "Main.WebHome"}}});
        reqwest::blocking::Client::builder()
            .timeout(Duration::from_secs(60))
            .build()
            .unwrap()
            .post(endpoint)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {token}"))
            .body(body.to_string())
            .send()
            .ok()
            .map(|response| response.status().as_u16())
    })
}

fn sigterm(setup: &Setup) {
    let pid = setup.served.child.id().to_string();
    let status = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(status.success());
}

/// Waits (at most `limit`) for the server to exit; how long it took.
fn exited_within(setup: &mut Setup, limit: Duration) -> Duration {
    let start = Instant::now();
    loop {
        if let Some(status) = setup.served.child.try_wait().unwrap() {
            assert!(status.success(), "the server exited with {status}");
            return start.elapsed();
        }
        assert!(
            start.elapsed() < limit,
            "the server did not exit within {limit:?}"
        );
        thread::sleep(Duration::from_millis(50));
    }
}

/// Sends a request on a connection `served.client` already holds open (kept alive since the
/// set-up's `tools/list`), and returns its status and refusal code.
fn on_the_open_connection(served: &Served) -> (u16, Option<String>) {
    let (status, refusal, _) = served.get("/healthz");
    (status, refusal)
}

fn a_call_in_flight_finishes(bindir: &Path) {
    let mut setup = setup(bindir, "20");
    // A connection open before the signal.
    assert_eq!(on_the_open_connection(&setup.served).0, 200);
    let lock = lock_documents(&setup.url);
    let call = call_in_background(&setup);
    thread::sleep(Duration::from_millis(500));
    sigterm(&setup);
    thread::sleep(Duration::from_millis(300));
    assert_eq!(
        on_the_open_connection(&setup.served),
        (503, Some("shutting-down".to_owned())),
        "a new request on an open connection"
    );
    drop(lock);
    assert_eq!(
        call.join().unwrap(),
        Some(200),
        "the call in flight finished"
    );
    let took = exited_within(&mut setup, Duration::from_secs(15));
    assert!(took < Duration::from_secs(15), "{took:?}");
    let log = std::fs::read_to_string(setup.log.path()).unwrap();
    assert!(
        log.lines()
            .any(|line| line.contains("tool=get_document") && line.contains("outcome=ok")),
        "{log}"
    );
}

fn a_call_past_the_deadline_is_cancelled(bindir: &Path) {
    let mut setup = setup(bindir, "1");
    let lock = lock_documents(&setup.url);
    let call = call_in_background(&setup);
    thread::sleep(Duration::from_millis(500));
    sigterm(&setup);
    // The deadline cancels the call, which the lock would hold for its 5 s lock timeout.
    within(
        "the call's `cancelled` audit line",
        Duration::from_secs(4),
        || {
            let log = std::fs::read_to_string(setup.log.path()).unwrap_or_default();
            log.lines()
                .any(|line| {
                    line.contains("tool=get_document") && line.contains("outcome=cancelled")
                })
                .then_some(())
        },
    );
    assert_eq!(call.join().unwrap(), None, "its connection was dropped");
    drop(lock);
    exited_within(&mut setup, Duration::from_secs(10));
}
