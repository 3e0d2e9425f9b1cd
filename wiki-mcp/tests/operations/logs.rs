//! What the stock binary writes to its log: the addresses and endpoints at start, a request id
//! per request (echoed in `x-request-id`, carried by the audit line), refused tokens and 429s at
//! WARN with the client address (never the token), `--log-format json`, and PostgreSQL's
//! NOTICEs kept at DEBUG.

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use crate::Needs;
use crate::cluster::Cluster;
use crate::served::{Served, WIKI_MCP, init, within};

pub(crate) fn cases() -> Vec<(&'static str, Needs)> {
    vec![
        (
            "the_json_log_names_the_endpoints_request_ids_and_refusals",
            Needs::Nothing(the_json_log_names_endpoints_ids_and_refusals),
        ),
        (
            "postgres_notices_are_logged_at_debug_only",
            Needs::PostgresPrograms(postgres_notices_are_debug),
        ),
    ]
}

/// The JSON lines of `path` so far; every line must be one.
fn json_lines(path: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|error| panic!("not JSON ({error}): {line}"))
        })
        .collect()
}

/// The first line of the log at `path` that `wanted` accepts, waiting for the writer.
fn logged(path: &std::path::Path, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
    within(what, Duration::from_secs(10), || {
        json_lines(path).into_iter().find(|line| wanted(line))
    })
}

/// A field of a JSON log line, as text.
fn field<'l>(line: &'l Value, name: &str) -> &'l str {
    line["fields"][name].as_str().unwrap_or_default()
}

/// POSTs `body` to the main wiki's endpoint with `headers`.
fn post(served: &Served, body: &Value, headers: &[(&str, &str)]) -> reqwest::blocking::Response {
    let mut request = served
        .client
        .post(format!(
            "http://{}/rest/wikis/main/aiLLM/mcp",
            served.address
        ))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(body.to_string());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().unwrap()
}

fn echoed_id(response: &reqwest::blocking::Response) -> String {
    response
        .headers()
        .get("x-request-id")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

fn the_json_log_names_endpoints_ids_and_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("farm");
    let data = data.to_str().unwrap();
    let token = init(&["--data", data]);
    let log = dir.path().join("server.log");
    let served = Served::start(
        &["--data", data],
        &[
            "--log-format",
            "json",
            "--log",
            "info",
            "--log-file",
            log.to_str().unwrap(),
            "--rate-limit",
            "1",
            "--rate-burst",
            "1",
        ],
    );

    let listening = logged(&log, "the listening line", |line| {
        line["fields"]["message"] == "listening"
    });
    assert_eq!(field(&listening, "address"), served.address.to_string());
    let endpoint = logged(&log, "the main wiki's endpoint", |line| {
        line["fields"]["message"] == "MCP endpoint"
    });
    assert_eq!(
        field(&endpoint, "url"),
        format!("http://{}/rest/wikis/main/aiLLM/mcp", served.address)
    );
    logged(&log, "the readiness endpoint", |line| {
        field(line, "url").ends_with("/readyz")
    });

    // The client's id is echoed and carried by the audit line.
    let bearer = format!("Bearer {token}");
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "list_wikis", "arguments": {}}});
    let answered = post(
        &served,
        &call,
        &[("authorization", &bearer), ("x-request-id", "op-test-42")],
    );
    assert_eq!(answered.status(), 200);
    assert_eq!(echoed_id(&answered), "op-test-42");
    let audit = logged(&log, "the call's audit line", |line| {
        line["target"] == "audit" && field(line, "tool") == "list_wikis"
    });
    assert_eq!(field(&audit, "request_id"), "op-test-42");

    // A token that is no valid one: WARN with the address and a digest prefix, never the token.
    let forged = "wmcp_forged_token_for_the_log_test";
    let refused = post(
        &served,
        &call,
        &[
            ("authorization", &format!("Bearer {forged}")),
            ("x-request-id", &"x".repeat(200)),
        ],
    );
    assert_eq!(refused.status(), 401);
    let own_id = echoed_id(&refused);
    assert!(
        !own_id.is_empty() && own_id.len() < 200,
        "an overlong id is replaced by one of the server's: {own_id}"
    );
    let warned = logged(&log, "the refused token's line", |line| {
        line["fields"]["message"] == "refused a token"
    });
    assert_eq!(warned["level"], "WARN");
    assert_eq!(field(&warned, "client"), "127.0.0.1");
    assert_eq!(field(&warned, "request_id"), own_id);
    let digest = field(&warned, "token_sha256");
    assert!(
        digest.len() == 8 && digest.chars().all(|c| c.is_ascii_hexdigit()),
        "{digest}"
    );

    // A caller past its rate: 429, logged at WARN with the address.
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let limited =
        (0..20).any(|_| post(&served, &list, &[("authorization", &bearer)]).status() == 429);
    assert!(limited, "one request a second: twenty in a row meet a 429");
    let warned = logged(&log, "the 429's line", |line| {
        line["fields"]["message"] == "rate limited: answered 429"
    });
    assert_eq!(warned["level"], "WARN");
    assert_eq!(field(&warned, "client"), "127.0.0.1");

    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains(forged), "the log holds a refused token");
    assert!(!text.contains(&token), "the log holds a token");
}

/// `wiki-mcp --database URL wikis list` with `--log level`: its stderr.
fn admin_command_stderr(url: &str, level: &str) -> String {
    let args = ["--database", url, "--log", level, "wikis", "list"];
    let output = Command::new(WIKI_MCP)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success(), "wiki-mcp {args:?} failed");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn postgres_notices_are_debug(bindir: &std::path::Path) {
    let cluster = Cluster::start_new(bindir);
    let url = cluster.url();
    init(&["--database", url.as_str()]);
    // Opening the farm checks its schema, and the server answers `CREATE TABLE IF NOT EXISTS`
    // on an existing table with a NOTICE.
    let notice = "already exists, skipping";
    let info = admin_command_stderr(&url, "info");
    assert!(!info.contains(notice), "a NOTICE at INFO:\n{info}");
    let debug = admin_command_stderr(&url, "debug");
    assert!(
        debug
            .lines()
            .any(|line| line.contains(notice) && line.contains("DEBUG")),
        "the NOTICE is kept at DEBUG:\n{debug}"
    );
}
