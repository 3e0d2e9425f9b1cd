//! An HTTP client that goes away mid-call cancels the call: the direct `tools/call` answer
//! (a plain request, no progress token) loses its connection, the call's token fires, and the
//! store statement the call is running is interrupted; and rmcp's own client cancelling a call
//! (`notifications/cancelled`, then it drops the request) stops it on either path. The tool
//! below ignores the token on purpose, so only the store stopping it ends its loop early.
//! (Raw hang-ups on rmcp's path, both protocols, both backends: `wiki-server/tests/server/
//! disconnects.rs`.)

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use serde_json::json;
use wiki_store::ConfigStore;
use wiki_tool_sdk::prelude::*;

use crate::harness::TestServer;

/// How each `grind_http` call's store work ended, by wiki: `interrupted` when the store
/// stopped it.
static ENDS: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());

/// The wikis whose `grind_http` call's store work has started.
static STARTS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Read one document over and over for up to a minute, never checking the call's signal.
#[mcp_tool(id = "grind_http", category = "Testing")]
pub(crate) struct GrindHttp {}

impl Execute for GrindHttp {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        let wiki = ctx.wiki().cloned().unwrap_or_else(WikiId::main);
        let page = DocumentReference::parse("Sandbox.WebHome", &wiki)
            .map_err(|e| ToolError::new(e.to_string()))?;
        ctx.store_call("grind", move |store| {
            STARTS
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(wiki.to_string());
            let until = std::time::Instant::now() + Duration::from_secs(60);
            let end = loop {
                if let Err(error) = store.document(&page, None) {
                    break match error {
                        StoreError::Interrupted => "interrupted".to_owned(),
                        other => other.to_string(),
                    };
                }
                if std::time::Instant::now() > until {
                    break "ran a minute".to_owned();
                }
            };
            let interrupted = end == "interrupted";
            ENDS.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push((wiki.to_string(), end));
            // As a real tool does: the store's refusal is the call's answer, so the audit says
            // `cancelled` whether the call path or the tool's own end is seen first.
            if interrupted {
                return Err(StoreError::Interrupted);
            }
            Ok(())
        })
        .await?;
        Ok(ToolOutput::text("ground"))
    }
}

/// Enables `grind_http` on `wiki`, creating the wiki first unless it is `main`.
fn enable_grind(server: &TestServer, wiki: &str) {
    let id = WikiId::new(wiki).expect("a wiki id");
    if wiki != "main" {
        wiki_store::WikiStore::create_wiki(&server.store, &id, wiki).expect("the wiki");
    }
    let mut config = server.store.mcp_config(&id);
    config.enabled_tools = vec!["grind_http".to_owned()];
    server
        .store
        .set_mcp_config(&id, &config, "admin")
        .expect("the configuration is saved");
}

/// Waits up to ten seconds for an item of `list` that `find` accepts.
async fn listed<T: Clone>(list: &Mutex<Vec<T>>, find: impl Fn(&T) -> bool) -> Option<T> {
    for _ in 0..1000 {
        let found = list
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .find(|item| find(item))
            .cloned();
        if found.is_some() {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    None
}

/// How the `grind_http` call on `wiki` ended.
async fn end_on(wiki: &str) -> Option<String> {
    listed(&ENDS, |(on, _)| on == wiki)
        .await
        .map(|(_, end)| end)
}

/// The outcome the audit gives the `grind_http` call on `wiki`, waiting up to two seconds for
/// its record.
async fn audited(server: &TestServer, wiki: &str) -> Option<String> {
    for _ in 0..200 {
        let records = server.manager.recent_calls().newest(1, |record| {
            record.tool == "grind_http" && record.wiki == wiki
        });
        if let Some(record) = records.first() {
            return Some(record.outcome.as_str().to_owned());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_disconnects_mid_call_cancels_it_and_its_store_work() {
    let server = TestServer::start().await;
    enable_grind(&server, "main");
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                      "params": {"name": "grind_http", "arguments": {}}});
    let request = reqwest::Client::new()
        .post(server.endpoint("main"))
        .header("accept", crate::harness::ACCEPT)
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {}", server.alice_token))
        .body(serde_json::to_vec(&body).expect("JSON"));
    let sent = tokio::spawn(request.send());
    // Hang up only once the store work runs: a call cancelled earlier would never reach the
    // store, and could not show that its statement is interrupted.
    assert!(
        listed(&STARTS, |on| on == "main").await.is_some(),
        "the grind did not start"
    );
    assert!(!sent.is_finished(), "the call was answered");
    // Dropping the request's future closes its connection.
    sent.abort();
    assert!(
        sent.await.is_err_and(|error| error.is_cancelled()),
        "the call was answered"
    );
    assert_eq!(end_on("main").await.as_deref(), Some("interrupted"));
    assert_eq!(audited(&server, "main").await.as_deref(), Some("cancelled"));
    server.stop().await.expect("the server stops");
}

/// rmcp's client (protocol 2025-11-25 over streamable HTTP) cancelling its call: it POSTs
/// `notifications/cancelled` and drops the request's connection. The stateless service cannot
/// tie the notification to the call (no session; rmcp answers it 202 and drops it), so the
/// dropped connection is what stops the call, on rmcp's path (`direct_tool_calls: false`) and
/// on the direct answer alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_rmcp_client_cancelling_its_call_stops_it_on_either_path() {
    for (wiki, direct_tool_calls) in [("cancelrmcp", false), ("canceldirect", true)] {
        let server = TestServer::start_with(wiki_server::http::HttpOptions {
            rate_limit: None,
            page_rate_limit: None,
            direct_tool_calls,
            ..wiki_server::http::HttpOptions::default()
        })
        .await;
        enable_grind(&server, wiki);
        let client = server.client(wiki, Some(&server.alice_token)).await;
        let request =
            rmcp::model::ClientRequest::CallToolRequest(rmcp::model::CallToolRequest::new(
                rmcp::model::CallToolRequestParams::new("grind_http"),
            ));
        let handle = client
            .peer()
            .send_cancellable_request(request, rmcp::service::PeerRequestOptions::no_options())
            .await
            .expect("the call is sent");
        assert!(
            listed(&STARTS, |on| on == wiki).await.is_some(),
            "{wiki}: the grind did not start"
        );
        handle
            .cancel(Some("the person changed their mind".to_owned()))
            .await
            .expect("the cancellation is sent");
        assert_eq!(end_on(wiki).await.as_deref(), Some("interrupted"), "{wiki}");
        assert_eq!(
            audited(&server, wiki).await.as_deref(),
            Some("cancelled"),
            "{wiki}"
        );
        server.stop().await.expect("the server stops");
    }
}
