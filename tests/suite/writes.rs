//! The write tools end to end over HTTP: an administrator enables them for a wiki by
//! configuration (the store call `wiki-mcp config set` makes), then one agent session creates a
//! page, edits it, reads it back, sees the change in the history, deletes it (refused to a
//! client that cannot ask its person, done for one whose person accepts), and the page comes
//! back from the recycle bin (the store call `wiki-mcp trash restore` makes).

use rmcp::ClientHandler;
use rmcp::model::{CallToolRequestParams, ElicitationAction};
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};
use wiki_store::model::wiki::WikiId;
use wiki_store::{ConfigStore, TrashStore};

use crate::harness::{TestServer, call_tool, text_of};

/// The tools the administrator turns on: reads to check back, and the document writes.
const TOOLS: [&str; 5] = [
    "get_document",
    "get_history",
    "write_document",
    "edit_document",
    "delete_document",
];

/// Calls `tool`; `Ok(text)` or `Err(text)` for an `isError` result.
async fn call<C: ClientHandler>(
    client: &RunningService<RoleClient, C>,
    tool: &str,
    arguments: Value,
) -> Result<String, String> {
    let result = call_tool(client, tool, arguments).await;
    let text = text_of(&result).unwrap_or_default();
    if result.is_error == Some(true) {
        Err(text)
    } else {
        Ok(text)
    }
}

#[track_caller]
fn ok(result: Result<String, String>) -> String {
    result.unwrap_or_else(|error| panic!("expected a result, got the error: {error}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_edit_read_diff_delete_restore() {
    let server = TestServer::start().await;
    let off = server.client("main", Some(&server.admin_token)).await;
    let Value::Object(arguments) = json!({"reference": "Sandbox.E2E", "content": "x"}) else {
        panic!("arguments must be an object");
    };
    let refused = off
        .call_tool(CallToolRequestParams::new("write_document").with_arguments(arguments))
        .await;
    assert!(
        refused.is_err_and(|error| error.to_string().contains("Unknown tool 'write_document'")),
        "write tools are off by default"
    );
    off.cancel().await.expect("the client closes");

    let main = WikiId::main();
    let mut config = server.store.mcp_config(&main);
    config.enabled_tools = TOOLS.iter().map(|tool| (*tool).to_owned()).collect();
    config.links = true;
    server
        .store
        .set_mcp_config(&main, &config, "admin")
        .expect("the configuration is saved");

    let agent = server.client("main", Some(&server.admin_token)).await;
    let created = ok(call(
        &agent,
        "write_document",
        json!({"reference": "Sandbox.E2E", "content": "# E2E\r\n\r\nfirst draft\r\n",
               "title": "End to end"}),
    )
    .await);
    assert!(
        created.starts_with("Created document main:Sandbox.E2E.\nVersion: 1.1\n"),
        "{created}"
    );
    assert!(created.contains("\nView: "), "{created}");

    let edited = ok(call(
        &agent,
        "edit_document",
        json!({"reference": "Sandbox.E2E", "base_version": "1.1",
               "edits": [{"old_string": "first draft", "new_string": "second draft"}]}),
    )
    .await);
    assert!(
        edited.starts_with("Edited document main:Sandbox.E2E.\nVersion: 1.1 -> 1.2\n"),
        "{edited}"
    );
    assert!(edited.contains("     3\tsecond draft"), "{edited}");

    let read = ok(call(&agent, "get_document", json!({"reference": "Sandbox.E2E"})).await);
    assert!(read.contains("Version: 1.2"), "{read}");
    assert!(read.contains("     3\tsecond draft"), "{read}");

    let diff = ok(call(
        &agent,
        "get_history",
        json!({"reference": "Sandbox.E2E", "from": "1.1"}),
    )
    .await);
    assert!(diff.contains("-first draft\n+second draft"), "{diff}");

    // The delete is declared `confirm`: this client declared no elicitation, so it is refused
    // and the page stays; a client whose person accepts deletes it, asked once (rmcp's client
    // proposes 2026-07-28 at initialize, is answered 2025-11-25, and is asked on the call's
    // event stream in its session).
    let delete = json!({"reference": "Sandbox.E2E", "base_version": "1.2"});
    let refused = call(&agent, "delete_document", delete.clone()).await;
    assert!(
        refused.as_ref().is_err_and(|message| message
            .contains("it declared no elicitation capability")
            && message.contains("Nothing was saved")),
        "{refused:?}"
    );
    assert!(
        call(&agent, "get_document", json!({"reference": "Sandbox.E2E"}))
            .await
            .is_ok()
    );
    let confirming = server
        .client_answering("main", Some(&server.admin_token), ElicitationAction::Accept)
        .await;
    let deleted = ok(call(&confirming, "delete_document", delete).await);
    assert!(deleted.contains("to the recycle bin"), "{deleted}");
    let asked = confirming.service().asked();
    assert!(
        asked.len() == 1 && asked[0].contains("delete main:Sandbox.E2E (version 1.2)"),
        "{asked:?}"
    );
    confirming.cancel().await.expect("the client closes");
    let gone = call(&agent, "get_document", json!({"reference": "Sandbox.E2E"})).await;
    assert!(gone.is_err(), "{gone:?}");

    let entry = server
        .store
        .trash(&main)
        .expect("the bin")
        .into_iter()
        .find(|entry| entry.reference.local() == "Sandbox.E2E")
        .expect("the page is in the bin");
    server
        .store
        .restore(entry.id, "admin")
        .expect("the page is restored");
    let back = ok(call(&agent, "get_document", json!({"reference": "Sandbox.E2E"})).await);
    assert!(back.contains("     3\tsecond draft"), "{back}");
    agent.cancel().await.expect("the client closes");
    server.stop().await.expect("the server stops");
}
