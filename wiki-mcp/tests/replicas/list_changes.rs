//! Tool-list and skill changes across replicas: listeners on B (a 2025-11-25 GET stream and a
//! 2026-07-28 `subscriptions/listen` stream) hear a configuration saved on A's admin page, and
//! a skill page written through A, within a second; a token revoked by an admin command closes
//! B's stream.

use std::io::{BufRead, BufReader};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::admin_page::{Browser, input};
use crate::farm::{Answer, Farm, Replica};
use wiki_store::testing::{PostgresServer, backend_test};

/// How soon a listener must hear a change made on another replica.
const HEARD_WITHIN: Duration = Duration::from_secs(1);

/// The JSON-RPC messages of an event stream, read on a thread of their own; the channel
/// closes when the stream ends.
pub(crate) fn messages(response: reqwest::blocking::Response) -> Receiver<Value> {
    assert_eq!(response.status(), 200, "the stream opens");
    let (send, receive) = channel();
    std::thread::spawn(move || {
        let mut data = String::new();
        for line in BufReader::new(response).lines() {
            let Ok(line) = line else { break };
            if let Some(rest) = line.strip_prefix("data:") {
                data.push_str(rest.trim());
            } else if line.is_empty() && !data.is_empty() {
                let Ok(message) = serde_json::from_str(&data) else {
                    break;
                };
                data.clear();
                if send.send(message).is_err() {
                    break;
                }
            }
        }
    });
    receive
}

/// A client whose requests may stream for as long as the test runs.
pub(crate) fn streaming() -> reqwest::blocking::Client {
    reqwest::blocking::Client::builder()
        .timeout(None)
        .build()
        .unwrap()
}

fn get_stream(on: &Replica, token: &str) -> Receiver<Value> {
    messages(
        streaming()
            .get(on.endpoint("main"))
            .header("accept", "text/event-stream")
            .header("authorization", format!("Bearer {token}"))
            .header("mcp-protocol-version", "2025-11-25")
            .send()
            .unwrap(),
    )
}

/// A `subscriptions/listen` stream on B for the `notifications` filter, which B must accept
/// whole.
fn listen_stream(on: &Replica, token: &str, notifications: Value) -> Receiver<Value> {
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen", "params": {
    "notifications": notifications,
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "replicas", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }}});
    let stream = messages(
        streaming()
            .post(on.endpoint("main"))
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {token}"))
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "subscriptions/listen")
            .body(body.to_string())
            .send()
            .unwrap(),
    );
    let acknowledged = stream.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(
        acknowledged["method"], "notifications/subscriptions/acknowledged",
        "{acknowledged}"
    );
    assert_eq!(
        acknowledged["params"]["notifications"], notifications,
        "{acknowledged}"
    );
    stream
}

/// Asserts that B's GET stream and listen stream both hear `method` within a second of `since`.
fn both_hear(get: &Receiver<Value>, listen: &Receiver<Value>, since: Instant, method: &str) {
    for (what, stream) in [("the GET stream", get), ("the listen stream", listen)] {
        let left = HEARD_WITHIN.saturating_sub(since.elapsed());
        let heard = stream
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("{what} on B did not hear {method} within a second"));
        assert_eq!(heard["method"], method, "{heard}");
    }
}

#[backend_test(only = "postgres")]
fn a_tool_list_change_on_one_replica_is_heard_by_listeners_on_the_other(server: &PostgresServer) {
    let farm = Farm::create(server);
    let (a, b) = (farm.replica(), farm.replica());
    let alice = farm.token("alice");
    let get = get_stream(&b, &alice);
    let listen = listen_stream(&b, &alice, json!({"toolsListChanged": true}));

    let mut browser = Browser::new();
    let (_, form) = browser.send(&a, "/admin/signin", None);
    let nonce = input(&form, "csrf");
    browser.send(
        &a,
        "/admin/signin",
        Some(&[("csrf", &nonce), ("token", &farm.admin_token)]),
    );
    let (status, page) = browser.send(&a, "/admin/wikis/main", None);
    assert_eq!(status, 200, "{page}");
    let csrf = input(&page, "csrf");
    let saved_at = Instant::now();
    let (status, saved) = browser.send(
        &a,
        "/admin/wikis/main",
        Some(&[
            ("csrf", &csrf),
            ("enabled", "on"),
            ("guest_access", "on"),
            ("tool", "get_document"),
            ("space_filter_mode", "none"),
            ("reach", "main"),
        ]),
    );
    assert_eq!(status, 303, "the configuration is saved on A: {saved}");
    both_hear(&get, &listen, saved_at, "notifications/tools/list_changed");

    let prefix = alice.split('_').nth(1).unwrap().to_owned();
    farm.admin(&["token", "revoke", &prefix]);
    assert_eq!(
        get.recv_timeout(HEARD_WITHIN * 2),
        Err(RecvTimeoutError::Disconnected),
        "a revoked token's stream is closed"
    );
}

#[backend_test(only = "postgres")]
fn a_skill_change_on_one_replica_is_heard_by_listeners_on_the_other(server: &PostgresServer) {
    let farm = Farm::create(server);
    let (a, b) = (farm.replica(), farm.replica());
    let alice = farm.token("alice");
    let get = get_stream(&b, &alice);
    let listen = listen_stream(&b, &alice, json!({"resourcesListChanged": true}));

    let written_at = Instant::now();
    let written = a.call(
        &farm.admin_token,
        "write_document",
        json!({"reference": "Skills.review-a-page", "title": "Review a page",
               "content": "# Review\n"}),
    );
    assert!(
        matches!(
            written,
            Answer::Result {
                is_error: false,
                ..
            }
        ),
        "the skill page is written through A: {written:?}"
    );
    both_hear(
        &get,
        &listen,
        written_at,
        "notifications/resources/list_changed",
    );
}
