//! The modern tool surface through rmcp's client over a pipe (stdio's transport): structured
//! results validated against the advertised output schema, progress notifications for a
//! request with a progress token, and the timeout and `notifications/cancelled` stopping a
//! call, each audited with its outcome.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientRequest, ProgressNotificationParam,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RoleClient};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};
use wiki_server::{McpHandler, ServerSettings};
use wiki_store::WikiStore;

use crate::harness::{Farm, alice, call, client};
use crate::logs;

/// Waits up to two seconds for an audit line of `tool` with `outcome`.
async fn audited(tool: &str, outcome: &str) -> bool {
    let tool = format!("tool={tool}");
    let outcome = format!("outcome={outcome}");
    for _ in 0..200 {
        if !logs::lines_with(&["audit", &tool, &outcome]).is_empty() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

#[tokio::test]
async fn list_wikis_answers_structured_content_its_schema_accepts() {
    let farm = Farm::new();
    let user = client(farm.manager(), alice("main")).await;
    let tools = user
        .list_all_tools()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let listed = tools.iter().find(|tool| tool.name == "list_wikis");
    let schema = listed
        .and_then(|tool| tool.output_schema.clone())
        .map(|schema| Value::Object((*schema).clone()))
        .unwrap_or_else(|| panic!("list_wikis advertises no output schema"));
    let annotations = listed.and_then(|tool| tool.annotations.clone());
    assert_eq!(annotations.and_then(|a| a.open_world_hint), Some(false));
    let result = user
        .call_tool(CallToolRequestParams::new("list_wikis"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let structured = result.structured_content.clone().unwrap_or_default();
    assert_eq!(
        structured,
        json!({"reach": true, "wikis": [
            {"id": "main", "name": "Main Wiki", "current": true},
            {"id": "dev", "name": "Development", "current": false},
        ]})
    );
    let validator = jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{e}"));
    assert!(validator.is_valid(&structured), "{structured}");
    // The text stays the reference's, for models and older clients.
    let text = result.content.first().and_then(|block| block.as_text());
    assert!(
        text.is_some_and(|text| text.text.contains("  dev — Development\n")),
        "{result:?}"
    );
}

#[tokio::test]
async fn a_timed_out_call_says_so_and_is_audited_timeout() {
    logs::capture();
    let farm = Farm::new();
    let manager =
        farm.manager_with(ServerSettings::default().with_call_timeout(Duration::from_millis(150)));
    let alice = client(manager, alice("main")).await;
    assert_eq!(
        call(&alice, "sleepy", json!({})).await,
        Err(
            "Error: tool 'sleepy' did not finish within 150 ms and was cancelled. Retry with a \
             narrower request (a smaller limit, a more specific query); if it keeps timing out, \
             tell an administrator."
                .to_owned()
        )
    );
    assert!(audited("sleepy", "timeout").await);
}

#[tokio::test]
async fn notifications_cancelled_stops_the_call_and_is_audited_cancelled() {
    logs::capture();
    let farm = Farm::new();
    // A wiki of its own, so the audit line found is this test's.
    farm.store
        .create_wiki(&crate::harness::wiki("cancelling"), "Cancelling")
        .unwrap_or_else(|e| panic!("{e}"));
    let alice = client(
        farm.manager(),
        wiki_server::Caller::user(crate::harness::wiki("cancelling"), "alice"),
    )
    .await;
    let request =
        ClientRequest::CallToolRequest(CallToolRequest::new(CallToolRequestParams::new("sleepy")));
    let handle = alice
        .peer()
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    tokio::time::sleep(Duration::from_millis(100)).await;
    handle
        .cancel(Some("the person changed their mind".to_owned()))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        audited("sleepy", "cancelled").await,
        "{:#?}",
        logs::lines_with(&["audit", "tool=sleepy"])
    );
}

/// A client that keeps the progress notifications it receives.
#[derive(Clone, Default)]
struct Recording(Arc<Mutex<Vec<ProgressNotificationParam>>>);

impl ClientHandler for Recording {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(params);
    }
}

#[tokio::test]
async fn a_request_with_a_progress_token_gets_throttled_progress_notifications() {
    let farm = Farm::new();
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let handler = McpHandler::with_caller(farm.manager(), alice("main"));
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let recording = Recording::default();
    let client = recording
        .clone()
        .serve(client_io)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // rmcp's client sends a progress token with every request.
    let result = client
        .call_tool(CallToolRequestParams::new("stepper"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result.is_error, Some(false));
    // The notifications race the reply on the pipe: give the last one a moment.
    let mut seen = Vec::new();
    for _ in 0..100 {
        seen = recording
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if seen.last().is_some_and(|p| p.progress == 5.0) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let steps: Vec<f64> = seen.iter().map(|p| p.progress).collect();
    assert_eq!(
        steps,
        [1.0, 2.0, 3.0, 4.0, 5.0],
        "120 ms apart: none throttled"
    );
    assert!(seen.iter().all(|p| p.total == Some(5.0)));
    assert_eq!(
        seen.last().and_then(|p| p.message.clone()),
        Some("step 5".to_owned())
    );
}
