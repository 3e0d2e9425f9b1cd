//! The example server as a client meets it: the real binary spawned as a child process, driven
//! over its stdin/stdout by rmcp's client. It proves the framework serves tools with nothing of
//! the wiki: initialize, the listing (the schema exactly as the declaration derives it), a good
//! call and a bad argument.

use std::process::Stdio;

// Linked for its declaration: the schema the client receives is compared with the derived one.
use hello_stdio as _;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::process::{Child, Command};

type Client = RunningService<RoleClient, ()>;

#[track_caller]
fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|error| panic!("{error}"))
}

/// The binary, spawned with piped stdin/stdout (killed when the test drops it), and an rmcp
/// client that ran `initialize` over those pipes.
async fn start() -> (Child, Client) {
    let mut child = ok(Command::new(env!("CARGO_BIN_EXE_hello-stdio"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn());
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        panic!("the child's pipes were not captured");
    };
    let client = ok(().serve((stdout, stdin)).await);
    (child, client)
}

async fn call(client: &Client, arguments: Value) -> CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    let request = CallToolRequestParams::new("text_stats").with_arguments(arguments);
    ok(client.call_tool(request).await)
}

fn text(result: &CallToolResult) -> &str {
    match result.content.as_slice() {
        [block] => block
            .as_text()
            .map(|text| text.text.as_str())
            .unwrap_or_else(|| panic!("not a text block: {block:?}")),
        other => panic!("expected one block, got {other:?}"),
    }
}

#[tokio::test]
async fn the_example_serves_its_tool_over_stdio() {
    let (_child, client) = start().await;

    let info = client
        .peer_info()
        .unwrap_or_else(|| panic!("no initialize result"));
    let server = info.server_info.as_ref().map(|server| server.name.as_str());
    assert_eq!(server, Some("hello-stdio"));
    assert!(info.capabilities.tools.is_some(), "the tools capability");
    let instructions = info.instructions.as_deref().unwrap_or_default();
    assert!(instructions.contains("text_stats"), "{instructions}");

    let tools = ok(client.list_all_tools().await);
    let [tool] = tools.as_slice() else {
        panic!("expected one tool, got {tools:?}");
    };
    assert_eq!(tool.name, "text_stats");
    assert_eq!(tool.title.as_deref(), Some("Text statistics"));
    // What the client sees is what the declaration derives: the same schema, built once.
    let registry = ok(mcp_runtime::registry());
    let declared = registry.get("text_stats").map(|registered| {
        registered
            .definition(mcp_runtime::SchemaVariant::Standard)
            .map(|d| d.input_schema.clone())
    });
    let declared = ok(declared.unwrap_or_else(|| panic!("text_stats is not linked")));
    assert_eq!(*tool.input_schema, *declared);
    assert_eq!(
        Value::Object((*tool.input_schema).clone()),
        json!({
            "type": "object",
            "properties": {
                "text": {
                    "type": "string",
                    "description": "The text to measure, kept exactly as sent."
                },
                "top": {
                    "type": "integer",
                    "description": "How many of the most frequent words to list (default 5, at most 20).",
                    "default": 5,
                    "minimum": 1,
                    "maximum": 20
                }
            },
            "required": ["text"],
            "additionalProperties": false
        })
    );

    let good = call(&client, json!({"text": "to be or not to be", "top": 2})).await;
    assert_ne!(good.is_error, Some(true));
    assert_eq!(
        text(&good),
        "Lines: 1\nWords: 6\nCharacters: 18\nMost frequent: be (2), to (2)"
    );

    let bad = call(&client, json!({"text": "anything", "top": 0})).await;
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(text(&bad), "Error: 'top' must be between 1 and 20 (got 0).");

    ok(client.cancel().await);
}
