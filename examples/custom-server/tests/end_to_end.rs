//! The example as an operator and an agent meet it: the real `custom-server` binary on a fresh
//! data directory. Its admin commands know the tools it links (`tools` lists them, `config set
//! tools=` accepts their ids and refuses the stock ones it does not link), and `serve` serves
//! them over HTTP to rmcp's client: listed for a user, the write tool enabled only when
//! configured and never offered to the guest, both called through the doors, the MCP
//! configuration refused to everyone.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Output, Stdio};

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use tempfile::TempDir;

const BINARY: &str = env!("CARGO_BIN_EXE_custom-server");

type Client = RunningService<RoleClient, ()>;

/// The admin command that turns the write tool on for `main`'s users.
const ENABLE_APPEND_NOTE: &[&str] = &[
    "config",
    "set",
    "--wiki",
    "main",
    "tools=default,+append_note",
];

#[track_caller]
fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|error| panic!("{error}"))
}

fn run(data: &Path, args: &[&str]) -> Output {
    ok(Command::new(BINARY)
        .arg("--data")
        .arg(data)
        .args(args)
        .env_remove("WIKI_MCP_DATA")
        .output())
}

/// stdout of a command that must succeed.
#[track_caller]
fn succeeds(data: &Path, args: &[&str]) -> String {
    let output = run(data, args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?} failed:\n{stderr}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// stderr of a command that must fail.
#[track_caller]
fn fails(data: &Path, args: &[&str]) -> String {
    let output = run(data, args);
    assert!(!output.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The `tools` line of `id`, with its runs of spaces collapsed.
fn catalog_line(catalog: &str, id: &str) -> Option<String> {
    catalog
        .lines()
        .find(|line| line.starts_with(&format!("{id} ")))
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
}

#[test]
fn the_admin_commands_know_the_tools_the_binary_links() {
    let dir = ok(TempDir::new());
    let data = dir.path();
    // Admin commands need a farm; `init` makes the demo farm, as a user would.
    succeeds(data, &["init"]);
    let catalog = succeeds(data, &["tools", "--wiki", "main"]);
    // The linked tools, with the server's own, and nothing of the bundled crate.
    let ids: Vec<&str> = catalog
        .lines()
        .skip(1)
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert_eq!(
        ids,
        [
            "man",
            "append_note",
            "page_stats",
            "remove_last_line",
            "list_wikis"
        ],
        "{catalog}"
    );
    assert_eq!(
        catalog_line(&catalog, "page_stats").as_deref(),
        Some("page_stats Notes no on")
    );
    assert_eq!(
        catalog_line(&catalog, "append_note").as_deref(),
        Some("append_note Notes yes off"),
        "write tools are off until configured"
    );
    assert_eq!(
        catalog_line(&catalog, "remove_last_line").as_deref(),
        Some("remove_last_line Notes yes off")
    );

    let saved = succeeds(data, ENABLE_APPEND_NOTE);
    assert!(saved.contains("tools = "), "{saved}");
    let catalog = succeeds(data, &["tools", "--wiki", "main"]);
    assert_eq!(
        catalog_line(&catalog, "append_note").as_deref(),
        Some("append_note Notes yes on (users)")
    );

    // A stock tool this binary does not link is unknown here, and the refusal lists ours.
    let refused = fails(
        data,
        &["config", "set", "--wiki", "main", "tools=+write_document"],
    );
    assert!(
        refused.contains("unknown tool id(s): write_document (known tools: ")
            && refused.contains("append_note")
            && refused.contains("page_stats"),
        "{refused}"
    );
}

/// A running `serve`, killed on drop, and its endpoint for `main`.
struct Served {
    child: Child,
    /// The read end of its stdout, kept open: the banner goes on after the first line, and a
    /// closed pipe would end the server.
    _stdout: BufReader<ChildStdout>,
    endpoint: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(data: &Path) -> Served {
    let mut child = ok(Command::new(BINARY)
        .arg("--data")
        .arg(data)
        .args(["serve", "--listen", "127.0.0.1:0", "--rate-limit", "0"])
        .env_remove("WIKI_MCP_DATA")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn());
    let stdout = child
        .stdout
        .take()
        .unwrap_or_else(|| panic!("stdout was not captured"));
    // The first line comes once the socket is bound.
    let mut stdout = BufReader::new(stdout);
    let mut first = String::new();
    ok(stdout.read_line(&mut first));
    let address = first
        .trim()
        .strip_prefix("wiki-mcp listening on ")
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_owned();
    Served {
        child,
        _stdout: stdout,
        endpoint: format!("http://{address}/rest/wikis/main/aiLLM/mcp"),
    }
}

async fn client(served: &Served, token: Option<&str>) -> Client {
    let mut config = StreamableHttpClientTransportConfig::with_uri(served.endpoint.clone());
    if let Some(token) = token {
        config = config.auth_header(token);
    }
    ok(
        ().serve(StreamableHttpClientTransport::from_config(config))
            .await,
    )
}

async fn tool_names(client: &Client) -> Vec<String> {
    let mut names: Vec<String> = ok(client.list_all_tools().await)
        .into_iter()
        .map(|tool| tool.name.into_owned())
        .collect();
    names.sort();
    names
}

/// `Ok(text)` of a result, `Err(text)` of an `isError` result or of a JSON-RPC refusal.
async fn call(client: &Client, tool: &str, arguments: Value) -> Result<String, String> {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    let request = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
    let result: CallToolResult = match client.call_tool(request).await {
        Ok(result) => result,
        Err(refusal) => return Err(refusal.to_string()),
    };
    let text = match result.content.as_slice() {
        [block] => block
            .as_text()
            .map(|text| text.text.clone())
            .unwrap_or_else(|| panic!("not a text block: {block:?}")),
        other => panic!("expected one block, got {other:?}"),
    };
    if result.is_error == Some(true) {
        Err(text)
    } else {
        Ok(text)
    }
}

#[track_caller]
fn refused(result: Result<String, String>) -> String {
    match result {
        Ok(text) => panic!("expected a refusal, got:\n{text}"),
        Err(text) => text,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_lists_calls_and_refuses_the_linked_tools_over_http() {
    let dir = ok(TempDir::new());
    let data = dir.path();
    // Admin commands need a farm; `init` makes the demo farm, as a user would.
    succeeds(data, &["init"]);
    let alice = succeeds(data, &["token", "create", "--user", "alice"]);
    let admin = succeeds(data, &["token", "create", "--user", "admin"]);
    let (alice, admin) = (alice.trim(), admin.trim());
    succeeds(data, ENABLE_APPEND_NOTE);
    let served = serve(data);

    let as_alice = client(&served, Some(alice)).await;
    assert_eq!(
        tool_names(&as_alice).await,
        ["append_note", "list_wikis", "man", "page_stats"]
    );
    let guest = client(&served, None).await;
    assert_eq!(
        tool_names(&guest).await,
        ["list_wikis", "man", "page_stats"],
        "the guest is never offered a write tool"
    );

    let page = json!({"reference": "Sandbox.WebHome"});
    let before = ok(call(&guest, "page_stats", page.clone()).await);
    assert_eq!(
        before,
        "Document: main:Sandbox.WebHome\nVersion: 1.1\nLines: 3\nWords: 15\nHeadings: 1"
    );
    // The read door: a space the guest may not view.
    let hidden = refused(
        call(
            &guest,
            "page_stats",
            json!({"reference": "Internal.Roadmap"}),
        )
        .await,
    );
    assert_eq!(
        hidden,
        "You do not have permission to view \"main:Internal.Roadmap\"."
    );

    let note = json!({"reference": "Sandbox.WebHome", "note": "Tried the custom server."});
    let guest_write = refused(call(&guest, "append_note", note.clone()).await);
    assert!(guest_write.contains("append_note"), "{guest_write}");
    let appended = ok(call(&as_alice, "append_note", note).await);
    assert_eq!(
        appended,
        "Appended a note to main:Sandbox.WebHome.\nVersion: 1.1 -> 1.2"
    );
    let after = ok(call(&guest, "page_stats", page).await);
    assert_eq!(
        after,
        "Document: main:Sandbox.WebHome\nVersion: 1.2\nLines: 4\nWords: 19\nHeadings: 1"
    );

    // The configuration is nobody's to write through a tool: alice may not even view it (the
    // door's view refusal), and the administrator, who may, is refused by the door too.
    let as_admin = client(&served, Some(admin)).await;
    let config = json!({"reference": "MCP.ServerConfig", "note": "enabled=false"});
    let text = refused(call(&as_alice, "append_note", config.clone()).await);
    assert_eq!(
        text,
        "You do not have permission to view \"main:MCP.ServerConfig\"."
    );
    let text = refused(call(&as_admin, "append_note", config).await);
    assert!(
        text.starts_with("Error: \"main:MCP.ServerConfig\" holds this server's MCP configuration"),
        "{text}"
    );
    let missing = json!({"reference": "Sandbox.Nowhere", "note": "hello"});
    let text = refused(call(&as_alice, "append_note", missing).await);
    assert_eq!(
        text,
        "Error: the document \"main:Sandbox.Nowhere\" does not exist."
    );

    for client in [as_alice, guest, as_admin] {
        ok(client.cancel().await);
    }
}
