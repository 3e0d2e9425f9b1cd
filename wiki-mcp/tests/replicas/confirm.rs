//! Confirmation across replicas: on a wiki that requires a person to confirm every write, a
//! 2025-11-25 client that declared elicitation is asked on its call's event stream by the
//! replica that runs the call (A); its answer POSTed to the other replica (B) is refused (409
//! `answer-unexpected`) and writes nothing, and the same answer POSTed to A reaches the call.

use std::sync::mpsc::Receiver;
use std::time::Duration;

use serde_json::{Value, json};

use crate::farm::{Answer, Farm, Replica};
use crate::list_changes::{messages, streaming};
use wiki_store::testing::{PostgresServer, backend_test};

const PROTOCOL: &str = "2025-11-25";

/// Longer than any step of this test may take.
const PATIENCE: Duration = Duration::from_secs(30);

/// POSTs `body` to `on`'s main endpoint as a 2025-11-25 client with `token`, in `session`
/// if any.
fn post(
    on: &Replica,
    token: &str,
    session: Option<&str>,
    body: &Value,
) -> reqwest::blocking::Response {
    let mut request = streaming()
        .post(on.endpoint("main"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("mcp-protocol-version", PROTOCOL)
        .header("authorization", format!("Bearer {token}"))
        .body(body.to_string());
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    request.send().unwrap()
}

/// The status and refusal header of the answer `action` to the question `id`, POSTed to `on`.
fn answer(on: &Replica, token: &str, session: &str, id: &Value, action: &str) -> (u16, String) {
    let body = json!({"jsonrpc": "2.0", "id": id, "result": {"action": action}});
    let response = post(on, token, Some(session), &body);
    let refusal = response
        .headers()
        .get("x-wiki-mcp-refusal")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    (response.status().as_u16(), refusal)
}

fn exists(on: &Replica, token: &str, page: &str) -> bool {
    match on.call(token, "get_document", json!({"reference": page})) {
        Answer::Result { is_error, .. } => !is_error,
        other => panic!("get_document: {other:?}"),
    }
}

#[backend_test(only = "postgres")]
fn an_answer_sent_to_the_other_replica_is_refused_and_writes_nothing(server: &PostgresServer) {
    let farm = Farm::create(server);
    farm.admin(&["config", "set", "--wiki", "main", "confirm_writes=true"]);
    let (a, b) = (farm.replica(), farm.replica());
    let token = farm.admin_token.clone();

    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": PROTOCOL,
        "capabilities": {"elicitation": {"form": {}}},
        "clientInfo": {"name": "replicas", "version": "1"},
    }});
    let response = post(&a, &token, None, &initialize);
    assert_eq!(response.status(), 200);
    let session = response
        .headers()
        .get("mcp-session-id")
        .and_then(|value| value.to_str().ok())
        .expect("a client that can be asked gets a session")
        .to_owned();

    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "write_document",
        "arguments": {"reference": "Sandbox.Confirmed", "content": "hello"},
    }});
    let stream: Receiver<Value> = messages(post(&a, &token, Some(&session), &call));
    let question = stream.recv_timeout(PATIENCE).expect("A asks");
    assert_eq!(question["method"], "elicitation/create", "{question}");
    let id = question["id"].clone();

    assert_eq!(
        answer(&b, &token, &session, &id, "accept"),
        (409, "answer-unexpected".to_owned()),
        "an answer sent to the replica that did not ask"
    );
    assert!(!exists(&b, &token, "Sandbox.Confirmed"), "nothing written");

    assert_eq!(
        answer(&a, &token, &session, &id, "accept"),
        (202, String::new())
    );
    let result = stream.recv_timeout(PATIENCE).expect("the call's result");
    assert_eq!(result["id"], 7, "{result}");
    assert_ne!(result["result"]["isError"], true, "{result}");
    assert!(
        exists(&b, &token, "Sandbox.Confirmed"),
        "written once accepted"
    );
}
