//! An HTTP client that goes away mid-call cancels the call: the direct `tools/call` answer
//! (a plain request, no progress token) loses its connection, the call's token fires, and the
//! store statement the call is running is interrupted. The tool below ignores the token on
//! purpose, so only the store stopping it ends its loop early.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use serde_json::json;
use wiki_server::prelude::*;
use wiki_store::ConfigStore;

use crate::harness::TestServer;

/// How each `grind_http` call's store work ended: `interrupted` when the store stopped it.
static ENDS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Read one document over and over for up to a minute, never checking the call's signal.
#[mcp_tool(id = "grind_http", category = "Testing")]
pub(crate) struct GrindHttp {}

impl Execute for GrindHttp {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        let page = DocumentReference::parse("Sandbox.WebHome", &WikiId::main())
            .map_err(|e| ToolError::new(e.to_string()))?;
        ctx.store_call("grind", move |store| {
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
            ENDS.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(end);
            Ok(())
        })
        .await?;
        Ok(ToolOutput::text("ground"))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_disconnects_mid_call_cancels_it_and_its_store_work() {
    let server = TestServer::start().await;
    let main = WikiId::main();
    let mut config = server.store.mcp_config(&main);
    config.enabled_tools = vec!["grind_http".to_owned()];
    server
        .store
        .set_mcp_config(&main, &config, "admin")
        .expect("the configuration is saved");
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                      "params": {"name": "grind_http", "arguments": {}}});
    // The client gives up after 300 ms and closes its connection.
    let sent = reqwest::Client::builder()
        .timeout(Duration::from_millis(300))
        .build()
        .expect("a client")
        .post(server.endpoint("main"))
        .header("accept", crate::harness::ACCEPT)
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {}", server.alice_token))
        .body(serde_json::to_vec(&body).expect("JSON"))
        .send()
        .await;
    assert!(
        sent.is_err_and(|error| error.is_timeout()),
        "the call was answered"
    );
    let mut end = None;
    for _ in 0..1000 {
        end = ENDS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .first()
            .cloned();
        if end.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(end.as_deref(), Some("interrupted"));
    let outcomes: Vec<&str> = server
        .manager
        .recent_calls()
        .newest(1, |record| record.tool == "grind_http")
        .into_iter()
        .map(|record| record.outcome.as_str())
        .collect();
    assert_eq!(outcomes, ["cancelled"]);
    server.stop().await.expect("the server stops");
}
