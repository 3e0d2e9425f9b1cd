//! The direct `tools/call` answer against rmcp's: two servers on the same demo farm content,
//! one answering plain calls itself (the default) and one sending every request through rmcp.
//! Every request must get the same status, content type and JSON from both, and the direct path
//! must have answered exactly the requests it claims (its debug event, captured by request id).

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use serde_json::{Value, json};
use tracing_subscriber::fmt::MakeWriter;
use wiki_server::http::HttpOptions;

use crate::harness::TestServer;

/// The direct path's debug events, captured for the whole test binary.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Captured {
    type Writer = Captured;

    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

fn captured() -> &'static Captured {
    static CAPTURED: OnceLock<Captured> = OnceLock::new();
    CAPTURED.get_or_init(|| {
        let captured = Captured::default();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(captured.clone())
            .with_ansi(false)
            .with_env_filter("wiki_server::http::direct=debug")
            .finish();
        tracing_subscriber::util::SubscriberInitExt::try_init(subscriber)
            .expect("this module installs the test binary's only subscriber");
        captured
    })
}

/// How many direct answers were logged for the request id `id` (unique per request here).
fn answered_directly(id: &str) -> usize {
    lines_with(&format!("\"{id}\""))
}

struct Case {
    /// Unique among the cases: the captured events are matched on it.
    id: &'static str,
    guest: bool,
    method_and_params: Value,
    headers: &'static [(&'static str, &'static str)],
    /// Whether the default server answers it itself.
    direct: bool,
}

fn call(name: &str, arguments: Value) -> Value {
    json!({"method": "tools/call", "params": {"name": name, "arguments": arguments}})
}

fn cases() -> Vec<Case> {
    let case = |id, guest, method_and_params, direct| Case {
        id,
        guest,
        method_and_params,
        headers: &[],
        direct,
    };
    vec![
        case("man-catalog", false, call("man", json!({})), true),
        case(
            "man-page",
            false,
            call("man", json!({"tool": "get_document"})),
            true,
        ),
        case("man-bad-arg", false, call("man", json!({"bogus": 1})), true),
        case(
            "null-arguments",
            false,
            json!({"method": "tools/call", "params": {"name": "man", "arguments": null}}),
            true,
        ),
        case("unknown-tool", false, call("no_such_tool", json!({})), true),
        case("guest-man", true, call("man", json!({})), true),
        case(
            "guest-write",
            true,
            call(
                "write_document",
                json!({"reference": "Sandbox.Direct", "content": "x"}),
            ),
            true,
        ),
        case(
            "user-write-refused-args",
            false,
            call("write_document", json!({"reference": ""})),
            true,
        ),
        Case {
            headers: &[("mcp-protocol-version", "2025-06-18")],
            ..case("protocol-header", false, call("man", json!({})), true)
        },
        // rmcp's client sends a progress token with every call.
        Case {
            headers: &[("mcp-protocol-version", "2025-11-25")],
            ..case(
                "progress-meta",
                false,
                json!({"method": "tools/call", "params": {"name": "man", "_meta": {"progressToken": 7}}}),
                true,
            )
        },
        // Left to rmcp: per-request protocol metadata, another method, a request rmcp refuses on
        // its headers.
        Case {
            headers: &[("mcp-protocol-version", "2026-07-28")],
            ..case(
                "new-protocol-meta",
                false,
                json!({"method": "tools/call", "params": {"name": "man", "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
                    "io.modelcontextprotocol/clientCapabilities": {},
                }}}),
                false,
            )
        },
        Case {
            headers: &[("mcp-protocol-version", "2026-07-28")],
            ..case("new-protocol-no-meta", false, call("man", json!({})), false)
        },
        // Structured results (outputSchema tools): a read, its error (no structuredContent), a
        // write's new version, and the same read for a peer of an older protocol.
        case(
            "structured-read",
            false,
            call("get_schema", json!({"class": "Library.BookClass"})),
            true,
        ),
        case(
            "structured-tree",
            false,
            call("get_tree", json!({"root": "Guides", "depth": 1})),
            true,
        ),
        case(
            "structured-error",
            false,
            call("get_document", json!({"reference": "Nope.Missing"})),
            true,
        ),
        case(
            "structured-write",
            false,
            call(
                "write_document",
                json!({"reference": "Sandbox.Structured", "content": "x\n"}),
            ),
            true,
        ),
        Case {
            headers: &[("mcp-protocol-version", "2025-03-26")],
            ..case(
                "structured-legacy",
                false,
                call("get_schema", json!({"class": "Library.BookClass"})),
                true,
            )
        },
        case("list", false, json!({"method": "tools/list"}), false),
        Case {
            headers: &[("content-type", "text/plain")],
            ..case("not-json", false, call("man", json!({})), false)
        },
    ]
}

async fn answer(server: &TestServer, case: &Case) -> (u16, Option<String>, Value) {
    let mut body = case.method_and_params.clone();
    body["jsonrpc"] = json!("2.0");
    body["id"] = json!(case.id);
    let token = (!case.guest).then_some(server.alice_token.as_str());
    let mut request = reqwest::Client::new()
        .post(server.endpoint("main"))
        .header("accept", crate::harness::ACCEPT)
        .body(serde_json::to_vec(&body).expect("JSON"));
    if !case.headers.iter().any(|(name, _)| *name == "content-type") {
        request = request.header("content-type", "application/json");
    }
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    for (name, value) in case.headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let bytes = response.bytes().await.expect("a body");
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, content_type, body)
}

fn enable_writes(server: &TestServer) {
    let wiki = wiki_store::model::wiki::WikiId::main();
    let mut config = wiki_store::ConfigStore::mcp_config(&server.store, &wiki);
    config.enabled_tools = [
        "man",
        "get_document",
        "get_tree",
        "get_schema",
        "write_document",
    ]
    .map(String::from)
    .to_vec();
    wiki_store::ConfigStore::set_mcp_config(&server.store, &wiki, &config, "admin")
        .expect("the configuration saves");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn direct_answers_are_rmcps_answers() {
    captured();
    let direct = TestServer::start().await;
    let through_rmcp = TestServer::start_with(HttpOptions {
        rate_limit: None,
        direct_tool_calls: false,
        ..HttpOptions::default()
    })
    .await;
    enable_writes(&direct);
    enable_writes(&through_rmcp);
    for case in cases() {
        let mut ours = answer(&direct, &case).await;
        let mut rmcps = answer(&through_rmcp, &case).await;
        unlinked(&mut ours.2);
        unlinked(&mut rmcps.2);
        assert_eq!(ours, rmcps, "case {}", case.id);
        assert_eq!(
            answered_directly(case.id),
            usize::from(case.direct),
            "case {}: answered directly?",
            case.id
        );
    }
    // The cases do reach the tools and their errors, not one generic reply.
    let (status, _, catalog) = answer(&direct, &cases()[0]).await;
    assert_eq!(status, 200);
    let text = catalog["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.starts_with("Available tools"), "{catalog}");
    let (_, _, unknown) = answer(&direct, &cases()[4]).await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    let case = |id: &str| {
        cases()
            .into_iter()
            .find(|case| case.id == id)
            .unwrap_or_else(|| panic!("no case {id}"))
    };
    let (_, _, read) = answer(&direct, &case("structured-read")).await;
    let class = &read["result"]["structuredContent"]["class"];
    assert_eq!(class["name"], "Library.BookClass", "{read}");
    let (_, _, error) = answer(&direct, &case("structured-error")).await;
    assert_eq!(error["result"]["isError"], true, "{error}");
    assert!(
        error["result"].get("structuredContent").is_none(),
        "{error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rmcp_client_is_answered_directly() {
    captured();
    let server = TestServer::start().await;
    // A wiki no other test uses, so its events are this test's alone.
    let probe = wiki_store::model::wiki::WikiId::new("directprobe").expect("a wiki id");
    wiki_store::WikiStore::create_wiki(&server.store, &probe, "Direct probe")
        .expect("the wiki is created");
    let client = server
        .client("directprobe", Some(&server.alice_token))
        .await;
    assert_eq!(lines_with("wiki=directprobe"), 0);
    let result = client
        .call_tool(rmcp::model::CallToolRequestParams::new("man"))
        .await
        .expect("tools/call man");
    assert_eq!(result.is_error, Some(false));
    assert_eq!(
        lines_with("wiki=directprobe"),
        1,
        "rmcp's client sends plain calls: they take the direct path"
    );
    client.cancel().await.expect("the client closes");
}

/// `value` with every signed link cut to `<link>`: the two servers listen on different ports
/// and sign with their own farm keys, so a write's review link differs between them.
fn unlinked(value: &mut Value) {
    match value {
        Value::String(text) if text.contains("http://127.0.0.1:") => {
            let lines: Vec<String> = text
                .split('\n')
                .map(|line| match line.find("http://127.0.0.1:") {
                    Some(at) => format!("{}<link>", &line[..at]),
                    None => line.to_owned(),
                })
                .collect();
            *text = lines.join("\n");
        }
        Value::Array(items) => items.iter_mut().for_each(unlinked),
        Value::Object(map) => map.values_mut().for_each(unlinked),
        _ => {}
    }
}

fn lines_with(needle: &str) -> usize {
    let bytes = captured()
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    String::from_utf8_lossy(&bytes)
        .lines()
        .filter(|line| line.contains(needle))
        .count()
}
