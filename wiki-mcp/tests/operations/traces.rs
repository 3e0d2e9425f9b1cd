//! OpenTelemetry: with `OTEL_EXPORTER_OTLP_ENDPOINT` set, the stock binary exports a span per
//! tool call to an OTLP/HTTP receiver (this test's own, decoding with the protocol's messages),
//! joined to the caller's trace from the `traceparent` header or the call's `_meta`, with the
//! tool, wiki, outcome and duration and never an argument value.

use std::collections::BTreeMap;
use std::time::Duration;

use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use opentelemetry_proto::tonic::trace::v1::Span;
use serde_json::{Value, json};

use crate::Needs;
use crate::otlp_receiver::{Receiver, Security, certificate_file};
use crate::served::{Served, WIKI_MCP, init, within};

pub(crate) fn cases() -> Vec<(&'static str, Needs)> {
    vec![
        (
            "a_callers_trace_gets_a_span_per_call_over_otlp",
            Needs::Nothing(a_callers_trace_gets_a_span_per_call),
        ),
        (
            "spans_reach_a_collector_over_mutual_tls_with_the_configured_certificates",
            Needs::Nothing(spans_reach_a_collector_over_mutual_tls),
        ),
        (
            "an_https_collector_the_system_roots_do_not_vouch_for_receives_nothing",
            Needs::Nothing(an_unvouched_collector_receives_nothing),
        ),
        (
            "an_otlp_protocol_the_build_cannot_speak_is_refused_at_start",
            Needs::Nothing(an_unspoken_protocol_is_refused),
        ),
        (
            "an_otlp_certificate_that_cannot_be_read_is_refused_at_start",
            Needs::Nothing(an_unreadable_certificate_is_refused),
        ),
    ]
}

/// Posts an MCP request `body` to the served `main` wiki as `token`'s bearer, with `headers`;
/// it must succeed.
fn post(served: &Served, token: &str, body: &Value, headers: &[(&str, &str)]) {
    let mut request = served
        .client
        .post(format!(
            "http://{}/rest/wikis/main/aiLLM/mcp",
            served.address
        ))
        .header("authorization", format!("Bearer {token}"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(body.to_string());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().unwrap();
    assert_eq!(response.status(), 200, "{}", response.text().unwrap());
}

/// A span's string and integer attributes, as text.
fn attributes(span: &Span) -> BTreeMap<String, String> {
    span.attributes
        .iter()
        .filter_map(|attribute| {
            let value = match attribute.value.as_ref()?.value.as_ref()? {
                AnyValue::StringValue(text) => text.clone(),
                AnyValue::IntValue(number) => number.to_string(),
                _ => return None,
            };
            Some((attribute.key.clone(), value))
        })
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// An argument value no span may carry.
const SECRET_ARGUMENT: &str = "Private.ArgumentValue7731";

fn a_callers_trace_gets_a_span_per_call() {
    let receiver = Receiver::start(Security::Plain);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let token = init(&["--data", data]);
    let served = Served::start_with_env(
        &["--data", data],
        &[],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint.as_str()),
            ("OTEL_BSP_SCHEDULE_DELAY", "100"),
        ],
    );
    let post = |body: &Value, headers: &[(&str, &str)]| post(&served, &token, body, headers);
    let arguments = json!({"reference": SECRET_ARGUMENT});

    // The trace of the HTTP request's header.
    let header_trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    let header_parent = "00f067aa0ba902b7";
    post(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "get_document", "arguments": arguments}}),
        &[
            (
                "traceparent",
                &format!("00-{header_trace}-{header_parent}-01"),
            ),
            ("x-request-id", "traced-call-1"),
        ],
    );
    // The trace of the call's `_meta`, which comes before the header's.
    let meta_trace = "0af7651916cd43dd8448eb211c80319c";
    let meta_parent = "b7ad6b7169203331";
    post(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "list_wikis", "arguments": {},
                "_meta": {"traceparent": format!("00-{meta_trace}-{meta_parent}-01")}}}),
        &[(
            "traceparent",
            &format!("00-{header_trace}-{header_parent}-01"),
        )],
    );

    let span_of = |trace: &str, tool: &str| {
        within(
            &format!("the span of {tool} in trace {trace}"),
            Duration::from_secs(20),
            || {
                receiver.spans().into_iter().find(|span| {
                    hex(&span.trace_id) == trace
                        && attributes(span).get("gen_ai.tool.name").map(String::as_str)
                            == Some(tool)
                })
            },
        )
    };
    let read = span_of(header_trace, "get_document");
    assert_eq!(hex(&read.parent_span_id), header_parent);
    assert_eq!(read.name, "tools/call get_document");
    let seen = attributes(&read);
    assert_eq!(seen["wiki_mcp.wiki"], "main");
    assert_eq!(seen["wiki_mcp.outcome"], "error", "{seen:?}");
    assert_eq!(seen["error.type"], "not_found", "{seen:?}");
    assert_eq!(seen["wiki_mcp.request_id"], "traced-call-1");
    assert!(seen.contains_key("wiki_mcp.duration_ms"));
    assert!(read.end_time_unix_nano >= read.start_time_unix_nano);

    let listed = span_of(meta_trace, "list_wikis");
    assert_eq!(hex(&listed.parent_span_id), meta_parent);
    assert_eq!(attributes(&listed)["wiki_mcp.outcome"], "ok");

    assert!(
        !receiver.received_text(SECRET_ARGUMENT),
        "an argument value was exported"
    );
}

/// The stderr of `serve` on a fresh farm with `env`, which must refuse to start.
fn refused_start(env: &[(&str, &std::ffi::OsStr)]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    init(&["--data", data]);
    let output = std::process::Command::new(WIKI_MCP)
        .args(["--data", data, "serve", "--listen", "127.0.0.1:0"])
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success(), "serve started without its traces");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn an_unspoken_protocol_is_refused() {
    let said = refused_start(&[
        (
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            "http://127.0.0.1:4317".as_ref(),
        ),
        ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc".as_ref()),
    ]);
    assert!(
        said.contains("OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported")
            && said.contains("http/protobuf"),
        "{said}"
    );
}

/// Serves a fresh farm (in the directory returned with the server) exporting to `receiver` with
/// `env` besides the endpoint, and makes one `list_wikis` call.
fn serve_and_call(receiver: &Receiver, env: &[(&str, &str)]) -> (Served, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let token = init(&["--data", data]);
    let mut all = vec![
        ("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint.as_str()),
        ("OTEL_BSP_SCHEDULE_DELAY", "100"),
    ];
    all.extend_from_slice(env);
    let served = Served::start_with_env(&["--data", data], &[], &all);
    post(
        &served,
        &token,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "list_wikis", "arguments": {}}}),
        &[],
    );
    (served, dir)
}

fn spans_reach_a_collector_over_mutual_tls() {
    let receiver = Receiver::start(Security::MutualTls);
    let authority = certificate_file("ca.pem");
    let certificate = certificate_file("client.pem");
    let key = certificate_file("client.key");
    let _served = serve_and_call(
        &receiver,
        &[
            (
                "OTEL_EXPORTER_OTLP_CERTIFICATE",
                authority.to_str().unwrap(),
            ),
            (
                "OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE",
                certificate.to_str().unwrap(),
            ),
            ("OTEL_EXPORTER_OTLP_CLIENT_KEY", key.to_str().unwrap()),
        ],
    );
    let span = within(
        "the span of list_wikis over TLS",
        Duration::from_secs(20),
        || {
            receiver.spans().into_iter().find(|span| {
                attributes(span).get("gen_ai.tool.name").map(String::as_str) == Some("list_wikis")
            })
        },
    );
    assert_eq!(attributes(&span)["wiki_mcp.outcome"], "ok");
    assert_eq!(receiver.failed_handshakes(), Vec::<String>::new());
}

fn an_unvouched_collector_receives_nothing() {
    // The receiver's authority is the tests' own, which the system's trust store does not hold:
    // without OTEL_EXPORTER_OTLP_CERTIFICATE the exporter must refuse the collector.
    let receiver = Receiver::start(Security::Tls);
    let _served = serve_and_call(&receiver, &[]);
    let failed = within(
        "the exporter's refused handshake",
        Duration::from_secs(20),
        || Some(receiver.failed_handshakes()).filter(|failed| !failed.is_empty()),
    );
    assert_eq!(
        receiver.received(),
        0,
        "spans went to an unverified collector (handshakes: {failed:?})"
    );
}

fn an_unreadable_certificate_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-ca.pem");
    let said = refused_start(&[
        (
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            "https://127.0.0.1:4318".as_ref(),
        ),
        ("OTEL_EXPORTER_OTLP_CERTIFICATE", missing.as_os_str()),
    ]);
    assert!(
        said.contains("cannot read OTEL_EXPORTER_OTLP_CERTIFICATE="),
        "{said}"
    );
}
