//! Renders of one page version asked for at once are done once: the calls that arrive while it
//! runs wait for that render and queue no heavy job of their own, so one caller sending the
//! same render many times is never refused for crowding the heavy slots.

use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};
use tokio::task::JoinSet;
use wiki_store::DocumentStore;
use wiki_store::model::document::DocumentSave;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;

use crate::harness::{TestServer, text_of};

/// A page within the rendering bounds but long enough (about 400,000 characters of paragraphs,
/// lists and emphasis) that its render still runs when the last concurrent call arrives.
fn large_page() -> String {
    (0..2_000)
        .map(|n| {
            format!(
                "## Part {n}\n\nA paragraph with *emphasis*, `code` and a [link](Sandbox.WebHome) \
                 about part {n}.\n\n- one item\n- another item\n  - nested item {n}\n\n"
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_renders_of_one_page_version_are_done_once() {
    let server = TestServer::start().await;
    let reference =
        DocumentReference::parse("Sandbox.Large", &WikiId::main()).expect("a reference");
    server
        .store
        .save_document(&DocumentSave::new(reference, large_page(), "alice"))
        .expect("a save");
    // One caller runs at most half the heavy slots' jobs and has at most the slots plus four
    // waiting: rendered once per call, this many calls at once would see some refused as
    // crowded, at once.
    let calls = wiki_tool_sdk::budgets::budgets().heavy_slots * 2 + 6;
    let client = server.client("main", Some(&server.alice_token)).await;
    let mut renders = JoinSet::new();
    for _ in 0..calls {
        let peer = client.peer().clone();
        renders.spawn(async move {
            let arguments =
                json!({"reference": "Sandbox.Large", "rendered": true, "format": "html"});
            let Value::Object(arguments) = arguments else {
                unreachable!("an object literal")
            };
            peer.call_tool(CallToolRequestParams::new("get_document").with_arguments(arguments))
                .await
                .expect("tools/call")
        });
    }
    let mut texts = Vec::new();
    while let Some(result) = renders.join_next().await {
        let result = result.expect("the call's task");
        let text = text_of(&result).unwrap_or_default();
        assert_ne!(result.is_error, Some(true), "{text}");
        texts.push(text);
    }
    assert_eq!(texts.len(), calls);
    assert!(
        texts.iter().all(|text| *text == texts[0]),
        "every call got the one rendering"
    );
}
