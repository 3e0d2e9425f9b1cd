//! The handler and the call path (`Manager::call`) through rmcp's client: tool lists per caller,
//! unknown tools, bad arguments, panics, the guest's write refusal, instructions and
//! the audit line.

use rmcp::ServiceError;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ErrorCode, Implementation, ProtocolVersion,
    RequestMetaObject,
};
use serde_json::json;
use wiki_server::{Caller, DEFAULT_DESCRIPTION, MAN_HINT};
use wiki_store::testing::backend_test;

use crate::harness::{Client, Farm, alice, call, client, guest, tool_names, wiki};
use crate::logs;

/// The JSON-RPC error of a call that must not produce a result.
async fn rpc_error(client: &Client, name: &str) -> (ErrorCode, String) {
    match client
        .call_tool(CallToolRequestParams::new(name.to_owned()))
        .await
    {
        Err(ServiceError::McpError(error)) => (error.code, error.message.into_owned()),
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

#[backend_test]
async fn write_tools_are_listed_only_when_enabled_and_never_for_the_guest() {
    let farm = Farm::new();
    let manager = farm.manager();
    let read_tools = [
        "boom",
        "boom_blocking",
        "echo",
        "grind",
        "list_wikis",
        "man",
        "peek",
        "queued",
        "sleepy",
        "stepper",
    ];
    assert_eq!(
        tool_names(&client(manager.clone(), alice("main")).await).await,
        read_tools
    );
    farm.configure("main", |config| {
        config.enabled_tools = vec!["echo".into(), "scribble".into()];
    });
    assert_eq!(
        tool_names(&client(manager.clone(), alice("main")).await).await,
        ["echo", "list_wikis", "man", "scribble"]
    );
    let guest = client(manager.clone(), guest("main")).await;
    assert_eq!(tool_names(&guest).await, ["echo", "list_wikis", "man"]);
    assert_eq!(
        rpc_error(&guest, "scribble").await,
        (
            ErrorCode::INVALID_PARAMS,
            "Tool 'scribble' changes content, which guests cannot do. Tools you can use here: \
             echo, list_wikis, man."
                .to_owned()
        )
    );
    let alice = client(manager, alice("main")).await;
    assert_eq!(
        call(&alice, "scribble", json!({})).await,
        Ok("scribbled".to_owned())
    );
}

#[backend_test]
async fn listed_tools_carry_annotations_and_a_title() {
    let farm = Farm::new();
    farm.configure("main", |config| {
        config.enabled_tools = vec!["echo".into(), "scribble".into()];
    });
    let alice = client(farm.manager(), alice("main")).await;
    let tools = alice
        .list_all_tools()
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let json = serde_json::to_value(&tools).unwrap_or_default();
    let scribble = json
        .as_array()
        .and_then(|tools| tools.iter().find(|tool| tool["name"] == "scribble"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(scribble["annotations"]["readOnlyHint"], json!(false));
    assert_eq!(scribble["annotations"]["destructiveHint"], json!(true));
    assert!(scribble.get("_meta").is_none(), "{scribble}");
    let man = json
        .as_array()
        .and_then(|tools| tools.iter().find(|tool| tool["name"] == "man"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(man["annotations"]["readOnlyHint"], json!(true));
    assert_eq!(man["title"], json!("Manual"));
}

#[backend_test]
async fn an_unknown_tool_is_a_json_rpc_error_listing_the_callers_tools() {
    let farm = Farm::new();
    let alice = client(farm.manager(), alice("dev")).await;
    assert_eq!(
        rpc_error(&alice, "get_everything").await,
        (
            ErrorCode::INVALID_PARAMS,
            "Unknown tool 'get_everything'. Tools you can use here: boom, boom_blocking, echo, \
             grind, man, peek, queued, sleepy, stepper."
                .to_owned()
        )
    );
}

#[backend_test]
async fn bad_arguments_are_an_is_error_result_naming_the_parameter() {
    let farm = Farm::new();
    let alice = client(farm.manager(), alice("main")).await;
    let missing = call(&alice, "echo", json!({})).await;
    assert!(
        missing
            .as_ref()
            .is_err_and(|text| text.starts_with("Error: 'text'")),
        "{missing:?}"
    );
    let unknown = call(&alice, "echo", json!({"text": "hi", "txet": 1})).await;
    assert!(
        unknown.as_ref().is_err_and(|text| text.contains("txet")),
        "{unknown:?}"
    );
    assert_eq!(
        call(&alice, "echo", json!({"text": "hi"})).await,
        Ok("hi".to_owned())
    );
}

#[backend_test]
async fn a_panic_is_a_generic_error_and_the_server_keeps_serving() {
    let log = logs::capture();
    let farm = Farm::new();
    let alice = client(farm.manager(), alice("main")).await;
    for tool in ["boom", "boom_blocking"] {
        let text = call(&alice, tool, json!({})).await;
        assert_eq!(
            text,
            Err(format!(
                "Internal error in tool '{tool}'. Retry the call; if it keeps failing, tell an \
                 administrator (the details are in the server log)."
            ))
        );
    }
    assert!(
        !log.lines_with(&["ERROR", "tool panicked", "secret detail"])
            .is_empty()
    );
    assert_eq!(
        call(&alice, "echo", json!({"text": "still here"})).await,
        Ok("still here".to_owned())
    );
}

#[backend_test]
async fn every_call_writes_one_audit_line_without_arguments() {
    let log = logs::capture();
    let farm = Farm::new();
    farm.store
        .create_user("auditee", None)
        .unwrap_or_else(|error| panic!("{error}"));
    let caller = Caller::user(wiki("dev"), "auditee");
    let auditee = client(farm.manager(), caller).await;
    let _ = call(&auditee, "echo", json!({"text": "confidential words"})).await;
    let _ = call(&auditee, "echo", json!({})).await;
    let _ = call(&auditee, "boom", json!({})).await;
    let lines = log.lines_with(&["audit", "user=auditee"]);
    assert_eq!(lines.len(), 3, "{lines:#?}");
    for (line, (tool, outcome, reason)) in lines.iter().zip([
        ("echo", "ok", "-"),
        ("echo", "error", "bad_argument"),
        ("boom", "failed", "internal"),
    ]) {
        assert!(
            line.contains(" INFO ") && line.contains("audit: MCP tool call"),
            "{line}"
        );
        assert!(
            line.contains(&format!(
                "tool={tool} wiki=dev user=auditee outcome={outcome} reason={reason} duration_ms="
            )),
            "{line}"
        );
        assert!(!line.contains("confidential"), "{line}");
    }
}

#[backend_test]
async fn initialize_returns_the_wikis_instructions() {
    let farm = Farm::new();
    farm.configure("dev", |config| {
        config.description = Some("The development wiki: specs and notes.".into());
    });
    let alice = client(farm.manager(), alice("dev")).await;
    let info = alice
        .peer_info()
        .unwrap_or_else(|| panic!("no server info"));
    assert_eq!(
        info.instructions.as_deref(),
        Some(format!("The development wiki: specs and notes.\n\n{MAN_HINT}").as_str())
    );
    assert_eq!(
        info.server_info
            .as_ref()
            .and_then(|server| server.title.as_deref()),
        Some("Development")
    );
    assert!(info.capabilities.tools.is_some());
}

#[backend_test]
async fn discover_returns_the_wikis_instructions() {
    let farm = Farm::new();
    let alice = client(farm.manager(), alice("main")).await;
    let discovered = alice
        .discover(RequestMetaObject::with_client_context(
            ProtocolVersion::V_2026_07_28,
            Implementation::new("test", "0"),
            ClientCapabilities::default(),
        ))
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        discovered.instructions.as_deref(),
        Some(format!("{}\n\n{MAN_HINT}", DEFAULT_DESCRIPTION).as_str())
    );
    assert!(discovered.capabilities.tools.is_some());
}
