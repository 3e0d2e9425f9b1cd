//! Human confirmation of writes over HTTP on protocol 2025-11-25, with raw JSON-RPC: a call whose
//! request cannot carry a question to its client and the answer back never waits for an answer
//! (it is refused, with the reason, on a wiki that requires confirmation and, for a tool
//! declared `confirm`, on one that does not), and never outlives the call timeout.

use std::time::Duration;

use serde_json::{Value, json};

use crate::confirm::{configure, is_error, page, text};
use crate::harness::{ACCEPT, TestServer};

const PROTOCOL: &str = "2025-11-25";

/// Longer than any answer of these calls should take (their call timeout is 2 seconds), so a
/// call that waits for an answer fails the test instead of holding it for minutes.
const PATIENCE: Duration = Duration::from_secs(20);

/// A short call timeout: a call held past it is a failure of the bound, not of the machine.
async fn start() -> TestServer {
    TestServer::start_with_settings(|settings| settings.with_call_timeout(Duration::from_secs(2)))
        .await
}

/// POSTs a 2025-11-25 `tools/call` of `tool` whose `_meta` declares form elicitation for this
/// request, and returns its `result`, from JSON or from the last event of an SSE stream.
async fn call_declaring_elicitation(
    server: &TestServer,
    token: &str,
    tool: &str,
    arguments: Value,
) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": tool,
        "arguments": arguments,
        "_meta": {"io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}},
    }});
    let response = reqwest::Client::builder()
        .timeout(PATIENCE)
        .build()
        .expect("an HTTP client")
        .post(server.endpoint("main"))
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-protocol-version", PROTOCOL)
        .header("authorization", format!("Bearer {token}"))
        .json(&body)
        .send()
        .await
        .expect("the server answers");
    let status = response.status();
    let reply = response
        .text()
        .await
        .unwrap_or_else(|error| panic!("the call was held past {PATIENCE:?}: {error}"));
    assert!(status.is_success(), "{status}: {reply}");
    let last = reply
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("data: "))
        .unwrap_or(&reply);
    let message: Value = serde_json::from_str(last).expect("a JSON-RPC message");
    message
        .get("result")
        .cloned()
        .unwrap_or_else(|| panic!("no result: {reply}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_call_that_cannot_carry_the_question_never_waits_for_an_answer() {
    let server = start().await;
    configure(&server, true);
    let token = server.admin_token.clone();

    let write = json!({"reference": "Sandbox.Unreachable", "content": "hello"});
    let refused = call_declaring_elicitation(&server, &token, "write_document", write).await;
    assert!(is_error(&refused), "{refused}");
    let message = text(&refused);
    assert!(
        message.contains("cannot ask")
            && message.contains("stateless HTTP")
            && message.contains("confirm_writes=false")
            && !message.contains("no elicitation capability"),
        "the refusal names the real reason: {message}"
    );
    assert_eq!(page(&server, "Sandbox.Unreachable"), None);

    // The bundled delete, declared `confirm`, on a wiki that does not require confirmation:
    // it cannot ask here either, so it is refused, for the same reason, with no setting named.
    configure(&server, false);
    let delete = json!({"reference": "Sandbox.WebHome", "base_version": "1.1"});
    let refused = call_declaring_elicitation(&server, &token, "delete_document", delete).await;
    assert!(is_error(&refused), "{refused}");
    let message = text(&refused);
    assert!(
        message.contains("cannot ask")
            && message.contains("stateless HTTP")
            && !message.contains("confirm_writes")
            && !message.contains("no elicitation capability"),
        "the refusal names the real reason: {message}"
    );
    assert!(
        page(&server, "Sandbox.WebHome").is_some(),
        "a refused delete deletes nothing"
    );
    server.stop().await.expect("the server stops");
}
