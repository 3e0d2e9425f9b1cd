//! Tool-list change announcements with raw JSON-RPC over HTTP: a 2025-11-25 client's
//! standalone GET stream and a 2026-07-28 client's `subscriptions/listen` stream hear
//! `notifications/tools/list_changed` within a second of a change that alters their list (a
//! configuration saved as `config set` saves it), and nothing for a change that does not (a
//! page saved); a revoked token's stream is closed; streams are capped per caller; `tools/list`
//! says how long it stays fresh and that it is the caller's own.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use wiki_server::http::{HttpOptions, ListenLimits};
use wiki_store::model::document::DocumentSave;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::{ConfigStore, DocumentStore, TokenStore, UserStore};

use crate::harness::{ACCEPT, TestServer, header, message};

/// How soon a listener must hear a change.
const HEARD_WITHIN: Duration = Duration::from_secs(1);

/// The protocol of `subscriptions/listen`.
const MODERN: &str = "2026-07-28";

/// An open event stream and what was read of it.
pub(crate) struct Events {
    response: reqwest::Response,
    buffer: String,
}

impl Events {
    /// Opens the standalone GET stream of `main` as the token's user.
    pub(crate) async fn get(endpoint: &str, token: &str) -> Events {
        let response = reqwest::Client::new()
            .get(endpoint)
            .header("accept", "text/event-stream")
            .header("authorization", format!("Bearer {token}"))
            .header("mcp-protocol-version", "2025-11-25")
            .send()
            .await
            .expect("the server answers");
        assert_eq!(
            response.status(),
            200,
            "{:?}",
            header(&response, "x-wiki-mcp-refusal")
        );
        Events::of(response).await
    }

    /// Opens a `subscriptions/listen` stream for tool-list changes on `main`.
    pub(crate) async fn listen(endpoint: &str, token: &str) -> Events {
        Events::listen_to(endpoint, token, json!({"toolsListChanged": true})).await
    }

    /// Opens a `subscriptions/listen` stream for the `notifications` filter on `main`, which
    /// the server must accept whole.
    pub(crate) async fn listen_to(endpoint: &str, token: &str, notifications: Value) -> Events {
        let body = json!({"jsonrpc": "2.0", "id": 7, "method": "subscriptions/listen", "params": {
        "notifications": notifications,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientInfo": {"name": "listen-test", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }}});
        let response = reqwest::Client::new()
            .post(endpoint)
            .header("accept", ACCEPT)
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {token}"))
            .header("mcp-protocol-version", MODERN)
            .header("mcp-method", "subscriptions/listen")
            .body(body.to_string())
            .send()
            .await
            .expect("the server answers");
        assert_eq!(response.status(), 200);
        let mut events = Events::of(response).await;
        let acknowledged = events.next(HEARD_WITHIN).await.expect("an acknowledgment");
        assert_eq!(
            acknowledged["method"], "notifications/subscriptions/acknowledged",
            "{acknowledged}"
        );
        assert_eq!(
            acknowledged["params"]["notifications"], notifications,
            "{acknowledged}"
        );
        events
    }

    /// The stream of `response`, read as it arrives.
    pub(crate) async fn of(response: reqwest::Response) -> Events {
        Events {
            response,
            buffer: String::new(),
        }
    }

    /// The next message of the stream within `limit` (comments skipped); `None` when the
    /// stream ended or nothing came in time.
    pub(crate) async fn next(&mut self, limit: Duration) -> Option<Value> {
        tokio::time::timeout(limit, self.next_message())
            .await
            .ok()
            .flatten()
    }

    /// Whether the stream ends within `limit` (after whatever messages it still sends).
    pub(crate) async fn ends_within(&mut self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, self.next_message()).await {
                Ok(None) => return true,
                Ok(Some(_)) => {}
                Err(_) => return false,
            }
        }
    }

    async fn next_message(&mut self) -> Option<Value> {
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let event: String = self.buffer.drain(..end + 2).collect();
                let data: String = event
                    .lines()
                    .filter_map(|line| line.strip_prefix("data:"))
                    .map(str::trim)
                    .collect();
                if !data.is_empty() {
                    return Some(serde_json::from_str(&data).expect("a JSON-RPC message"));
                }
            }
            match self.response.chunk().await {
                Ok(Some(chunk)) => self.buffer.push_str(&String::from_utf8_lossy(&chunk)),
                Ok(None) | Err(_) => return None,
            }
        }
    }
}

/// Serves `tools` on `main`, as `wiki-mcp config set --wiki main tools=…` would.
fn serve_tools(server: &TestServer, tools: &[&str]) {
    let main = WikiId::main();
    let mut config = server.store.mcp_config(&main);
    config.enabled_tools = tools.iter().map(|tool| (*tool).to_owned()).collect();
    server
        .store
        .set_mcp_config(&main, &config, "admin")
        .expect("the configuration is saved");
}

fn is_list_changed(message: &Value) -> bool {
    message["method"] == "notifications/tools/list_changed"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_kinds_of_stream_hear_a_change_of_their_list_and_nothing_else() {
    let server = TestServer::start().await;
    let endpoint = server.endpoint("main");
    let alice = server.alice_token.clone();
    let mut get = Events::get(&endpoint, &alice).await;
    let mut listen = Events::listen(&endpoint, &alice).await;

    // A page saved changes no list: nothing is announced.
    let page = DocumentReference::parse("Sandbox.Quiet", &WikiId::main()).expect("a reference");
    server
        .store
        .save_document(&DocumentSave::new(page, "unrelated", "admin"))
        .expect("the page is saved");
    assert_eq!(get.next(Duration::from_millis(500)).await, None);
    assert_eq!(listen.next(Duration::from_millis(100)).await, None);

    let changed_at = Instant::now();
    serve_tools(&server, &["get_document", "write_document"]);
    let heard = get
        .next(HEARD_WITHIN)
        .await
        .expect("the GET stream hears the change");
    assert!(is_list_changed(&heard), "{heard}");
    let heard = listen
        .next(HEARD_WITHIN.saturating_sub(changed_at.elapsed()))
        .await
        .expect("the listen stream hears the change");
    assert!(is_list_changed(&heard), "{heard}");
    assert_eq!(
        heard["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        json!(7),
        "{heard}"
    );

    // Saving the same list again changes nothing.
    serve_tools(&server, &["get_document", "write_document"]);
    assert_eq!(get.next(Duration::from_millis(500)).await, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_is_announced_only_to_those_whose_list_it_changes() {
    let server = TestServer::start().await;
    let endpoint = server.endpoint("main");
    let alice = server.alice_token.clone();
    serve_tools(&server, &["get_document", "get_tree"]);
    let mut everything = Events::get(&endpoint, &alice).await;
    let mut read_only = Events::get(&format!("{endpoint}?readonly=true"), &alice).await;
    // A write tool more: the read-only session's list is the same.
    serve_tools(&server, &["get_document", "get_tree", "write_document"]);
    let heard = everything.next(HEARD_WITHIN).await.expect("heard");
    assert!(is_list_changed(&heard), "{heard}");
    assert_eq!(read_only.next(Duration::from_millis(300)).await, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revoked_tokens_streams_are_closed() {
    let server = TestServer::start().await;
    let endpoint = server.endpoint("main");
    let alice = server.alice_token.clone();
    let mut get = Events::get(&endpoint, &alice).await;
    let mut listen = Events::listen(&endpoint, &alice).await;
    let prefix = alice.split('_').nth(1).expect("a token prefix");
    server.store.revoke_token(prefix).expect("revoked");
    assert!(get.ends_within(HEARD_WITHIN).await, "the GET stream ends");
    // The listen stream ends with an error saying why.
    let last = listen
        .next(HEARD_WITHIN)
        .await
        .expect("the listen stream's end");
    let error = last["error"]["message"].as_str().unwrap_or_default();
    assert!(error.contains("no longer"), "{last}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_are_capped_per_caller_and_in_all() {
    let server = TestServer::start_with(HttpOptions {
        rate_limit: None,
        listen_limits: ListenLimits {
            total: 2,
            per_caller: 1,
        },
        ..HttpOptions::default()
    })
    .await;
    let endpoint = server.endpoint("main");
    server.store.create_user("bob", None).expect("bob");
    let bob = server
        .store
        .create_token("bob", "test")
        .expect("bob's token")
        .token
        .expose()
        .to_owned();
    let open = |token: String| {
        let endpoint = endpoint.clone();
        async move {
            reqwest::Client::new()
                .get(endpoint)
                .header("accept", "text/event-stream")
                .header("authorization", format!("Bearer {token}"))
                .send()
                .await
                .expect("the server answers")
        }
    };
    let refused_for = |response: reqwest::Response| async move {
        assert_eq!(response.status(), 429);
        assert_eq!(
            header(&response, "x-wiki-mcp-refusal").as_deref(),
            Some("too-many-streams")
        );
        response.text().await.expect("a body")
    };
    let first = Events::get(&endpoint, &server.alice_token).await;
    let text = refused_for(open(server.alice_token.clone()).await).await;
    assert!(text.contains("this caller"), "{text}");
    let _admin = Events::get(&endpoint, &server.admin_token).await;
    let text = refused_for(open(bob.clone()).await).await;
    assert!(text.contains("this server"), "{text}");

    // A stream the client closed gives its place back.
    drop(first);
    let mut reopened = false;
    for _ in 0..50 {
        if open(server.alice_token.clone()).await.status() == 200 {
            reopened = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(reopened, "a closed stream's place is given back");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_announces_list_changes_and_says_how_long_it_stays_fresh() {
    let server = TestServer::start().await;
    let alice = server.alice_token.clone();
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "ttl-test", "version": "1"}}});
    let response = server.post("main", Some(&alice), &initialize, &[]).await;
    let reply = message(&response.text().await.expect("a body"));
    assert_eq!(
        reply["result"]["capabilities"]["tools"]["listChanged"],
        json!(true),
        "{reply}"
    );
    let body = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "ttl-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }}});
    let response = server
        .post(
            "main",
            Some(&alice),
            &body,
            &[
                ("mcp-protocol-version", MODERN),
                ("mcp-method", "tools/list"),
            ],
        )
        .await;
    let reply = message(&response.text().await.expect("a body"));
    assert_eq!(reply["result"]["ttlMs"], json!(60_000), "{reply}");
    assert_eq!(reply["result"]["cacheScope"], json!("private"), "{reply}");
}
