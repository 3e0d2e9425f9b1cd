//! The farm's audit record (what the admin page's audit view reads): every call the manager
//! runs reaches the store a moment later, off the call path, with the audit's fields and never
//! the arguments; a manager that stops writes what it still holds.

use std::time::{Duration, Instant};

use mcp_runtime::call::ToolCall;
use serde_json::json;
use wiki_store::model::admin::{AuditCall, AuditFilter};
use wiki_store::testing::backend_test;

use crate::harness::{Farm, alice, wiki};

fn recorded(farm: &Farm, tool: &str) -> Vec<AuditCall> {
    let filter = AuditFilter {
        tool: Some(tool),
        ..AuditFilter::default()
    };
    farm.other_process()
        .recent_audit(&filter, 100)
        .unwrap_or_else(|error| panic!("{error}"))
}

async fn run(manager: &wiki_server::Manager, tool: &str, arguments: serde_json::Value) {
    let server = manager
        .endpoint(&wiki("main"))
        .await
        .unwrap_or_else(|error| panic!("{error:?}"));
    let serde_json::Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    manager
        .call(&server, &alice("main"), ToolCall::new(tool, arguments))
        .await
        .unwrap_or_else(|error| panic!("{error:?}"));
}

#[backend_test]
async fn a_call_reaches_the_farms_audit_record_without_its_arguments() {
    let farm = Farm::new();
    let manager = farm.manager();
    run(&manager, "echo", json!({"text": "hunter2"})).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    let rows = loop {
        let rows = recorded(&farm, "echo");
        if !rows.is_empty() || Instant::now() > deadline {
            break rows;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(rows.len(), 1, "{rows:?}");
    let row = &rows[0];
    assert_eq!(
        (row.wiki.as_str(), row.user.as_str(), row.outcome.as_str()),
        ("main", "alice", "ok")
    );
    assert_eq!(row.reason, None);
    assert!(
        !format!("{row:?}").contains("hunter2"),
        "never the arguments"
    );
}

#[backend_test]
async fn a_stopping_manager_writes_the_calls_it_still_holds() {
    let farm = Farm::new();
    let manager = farm.manager();
    for _ in 0..5 {
        run(&manager, "echo", json!({"text": "x"})).await;
    }
    // Bad arguments: an error with its reason category.
    let server = manager
        .endpoint(&wiki("main"))
        .await
        .unwrap_or_else(|error| panic!("{error:?}"));
    let mut arguments = serde_json::Map::new();
    arguments.insert("nonsense".to_owned(), json!(1));
    let _ = manager
        .call(&server, &alice("main"), ToolCall::new("echo", arguments))
        .await;
    drop(server);
    drop(manager);
    let rows = recorded(&farm, "echo");
    assert_eq!(
        rows.len(),
        6,
        "all written when the manager stopped: {rows:?}"
    );
    assert_eq!(rows[0].outcome, "error", "newest first: {rows:?}");
    assert_eq!(rows[0].reason.as_deref(), Some("bad_argument"));
}
