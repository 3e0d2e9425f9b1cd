//! A 2025-11-25 HTTP client that POSTs `notifications/cancelled` while its `tools/call` is
//! still open cancels that call (`http/in_flight.rs`), whichever code answers it: the direct
//! answer (plain and streamed) or rmcp's handler (a body with a `_meta` member the direct
//! answer leaves to rmcp, or a server with `direct_tool_calls: false`). The cancel is answered
//! 202 as before; the call ends as a cancelled call does (store work interrupted, audited
//! `cancelled`) and its open request receives that answer. A cancel reaches only the call of
//! the same token on the same wiki with the same id: bob's, alice's on another wiki and
//! alice's with another id leave it running, and then alice's own ends it.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use wiki_server::Manager;
use wiki_store::testing::backend_test;

use crate::disconnects::{PROMPTLY, outcome};
use crate::harness::Farm;
use crate::served::{Connection, Framing, Served};
use crate::tools::{grind_end, grind_started};

const PROTOCOL: (&str, &str) = ("MCP-Protocol-Version", "2025-11-25");

/// Which code answers the call.
#[derive(Clone, Copy)]
enum Path {
    /// The direct answer, JSON.
    Direct,
    /// The direct answer, streamed: the call carries a progress token and reports once.
    DirectStream,
    /// rmcp's handler on a server that answers directly: the body's `_meta` has a member the
    /// direct answer does not take.
    RmcpByMeta,
    /// rmcp's handler on a server with `direct_tool_calls: false`.
    RmcpOnly,
}

impl Path {
    fn call(self, id: u32) -> Value {
        let mut params = json!({"name": "grind", "arguments": {}});
        match self {
            Self::Direct | Self::RmcpOnly => {}
            Self::DirectStream => {
                params["arguments"]["report"] = json!(true);
                params["_meta"] = json!({"progressToken": "grinding"});
            }
            Self::RmcpByMeta => params["_meta"] = json!({"example.com/trace": "x"}),
        }
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
    }
}

fn cancel(id: u32) -> Value {
    json!({
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "the user stopped it"},
    })
}

/// A server over a fresh wiki of the test's own (grind markers and audit records are told
/// apart by wiki), and tokens for alice and bob.
struct Setup {
    wiki: &'static str,
    manager: Arc<Manager>,
    served: Served,
    alice: String,
    bob: String,
}

impl Setup {
    async fn new(farm: &Farm, wiki: &'static str, path: Path) -> Self {
        farm.store
            .create_wiki(&crate::harness::wiki(wiki), wiki)
            .unwrap_or_else(|e| panic!("{e}"));
        let token = |user: &str| {
            farm.store
                .create_token(user, "cancel test")
                .unwrap_or_else(|e| panic!("{e}"))
                .token
                .expose()
                .to_owned()
        };
        let manager = farm.manager();
        let served = Served::start(Arc::clone(&manager), !matches!(path, Path::RmcpOnly)).await;
        Setup {
            wiki,
            manager,
            alice: token("alice"),
            bob: token("bob"),
            served,
        }
    }

    /// Starts `path`'s grind call as alice with id 7; returns once its store work runs.
    async fn start(&self, path: Path) -> Connection {
        let mut connection = self.post(self.wiki, &self.alice, &path.call(7)).await;
        if let Path::DirectStream = path {
            let received = connection.read_until("notifications/progress").await;
            assert!(
                received.contains("text/event-stream"),
                "the reply does not stream: {received}"
            );
        }
        grind_started(self.wiki).await;
        connection
    }

    async fn post(&self, wiki: &str, token: &str, body: &Value) -> Connection {
        let authorization = format!("Bearer {token}");
        let headers = [PROTOCOL, ("Authorization", authorization.as_str())];
        Connection::post(&self.served, wiki, &headers, body, Framing::ContentLength).await
    }

    /// POSTs a cancel of `id` with `token` on `wiki`; asserts it is answered 202, as it was
    /// before cancels were heard.
    async fn cancel(&self, wiki: &str, token: &str, id: u32) {
        let mut connection = self.post(wiki, token, &cancel(id)).await;
        let received = connection.read_until("\r\n\r\n").await;
        assert!(
            received.starts_with("HTTP/1.1 202"),
            "a cancel was not answered 202: {received}"
        );
    }

    /// Asserts that the call's store work was interrupted, the call audited `cancelled`, and
    /// its open request answered that it was cancelled, all promptly.
    async fn assert_cancelled(&self, mut call: Connection) {
        assert_eq!(
            grind_end(self.wiki, PROMPTLY).await.as_deref(),
            Some("interrupted")
        );
        assert_eq!(
            outcome(&self.manager, self.wiki).await.as_deref(),
            Some("cancelled")
        );
        // The call path's answer, even when the tool returned its own answer to the store's
        // interruption first (mcp-runtime's call path answers every cancelled call itself).
        let received = call.read_until("\"isError\":true").await;
        assert!(received.starts_with("HTTP/1.1 200"), "{received}");
        assert!(
            received.contains("Error: the call of 'grind' was cancelled before it finished."),
            "the call's answer is not the call path's cancellation: {received}"
        );
    }
}

async fn a_cancel_stops_the_call(wiki: &'static str, path: Path) {
    let farm = Farm::new();
    let setup = Setup::new(&farm, wiki, path).await;
    let call = setup.start(path).await;
    setup.cancel(wiki, &setup.alice, 7).await;
    setup.assert_cancelled(call).await;
}

async fn another_credential_wiki_or_id_does_not(wiki: &'static str, path: Path) {
    let farm = Farm::new();
    let setup = Setup::new(&farm, wiki, path).await;
    let mut call = setup.start(path).await;
    setup.cancel(wiki, &setup.bob, 7).await;
    setup.cancel("dev", &setup.alice, 7).await;
    setup.cancel(wiki, &setup.alice, 8).await;
    // Each cancel fires the token before its 202 is sent: a wrong one would have ended the
    // call by now, and its answer would be on the way.
    assert!(
        !call.answered_within(Duration::from_millis(300)).await,
        "a cancel of another credential, wiki or id answered the call"
    );
    assert_eq!(grind_end(wiki, Duration::ZERO).await, None);
    setup.cancel(wiki, &setup.alice, 7).await;
    setup.assert_cancelled(call).await;
}

#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_notification_stops_a_directly_answered_call() {
    a_cancel_stops_the_call("cancdirect", Path::Direct).await;
}

#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_notification_stops_a_directly_streamed_call() {
    a_cancel_stops_the_call("cancstream", Path::DirectStream).await;
}

#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_notification_stops_a_call_answered_by_rmcp() {
    a_cancel_stops_the_call("cancrmcp", Path::RmcpByMeta).await;
}

#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_notification_stops_a_call_when_direct_answers_are_off() {
    a_cancel_stops_the_call("cancrmcponly", Path::RmcpOnly).await;
}

#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_of_another_token_wiki_or_id_leaves_a_direct_call_running() {
    another_credential_wiki_or_id_does_not("cancnotdirect", Path::Direct).await;
}

#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_of_another_token_wiki_or_id_leaves_an_rmcp_call_running() {
    another_credential_wiki_or_id_does_not("cancnotrmcp", Path::RmcpByMeta).await;
}
