//! OpenTelemetry: with `OTEL_EXPORTER_OTLP_ENDPOINT` set, the stock binary exports a span per
//! tool call to an OTLP/HTTP receiver (this test's own, decoding with the protocol's messages),
//! joined to the caller's trace from the `traceparent` header or the call's `_meta`, with the
//! tool, wiki, outcome and duration and never an argument value.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;
use serde_json::{Value, json};

use crate::Needs;
use crate::served::{Served, WIKI_MCP, init, within};

pub(crate) fn cases() -> Vec<(&'static str, Needs)> {
    vec![
        (
            "a_callers_trace_gets_a_span_per_call_over_otlp",
            Needs::Nothing(a_callers_trace_gets_a_span_per_call),
        ),
        (
            "an_otlp_protocol_the_build_cannot_speak_is_refused_at_start",
            Needs::Nothing(an_unspoken_protocol_is_refused),
        ),
    ]
}

/// An OTLP/HTTP receiver on a loopback port: every body posted to `/v1/traces`, as sent.
struct Receiver {
    endpoint: String,
    bodies: Arc<Mutex<Vec<Bytes>>>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Receiver {
    fn start() -> Receiver {
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&bodies);
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let endpoint = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let app = axum::Router::new().route(
                    "/v1/traces",
                    axum::routing::post(move |body: Bytes| async move {
                        kept.lock().unwrap().push(body);
                        // An empty ExportTraceServiceResponse: everything accepted.
                        ([("content-type", "application/x-protobuf")], Bytes::new())
                    }),
                );
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = stopped.await;
                    })
                    .await
                    .unwrap();
            });
        });
        Receiver {
            endpoint,
            bodies,
            _stop: stop,
        }
    }

    /// Every span received so far.
    fn spans(&self) -> Vec<Span> {
        self.bodies
            .lock()
            .unwrap()
            .iter()
            .flat_map(|body| {
                ExportTraceServiceRequest::decode(body.as_ref())
                    .unwrap_or_else(|error| panic!("not an OTLP trace export ({error})"))
                    .resource_spans
            })
            .flat_map(|resource| resource.scope_spans)
            .flat_map(|scope| scope.spans)
            .collect()
    }

    /// Whether `text` appears anywhere in what was received.
    fn received_text(&self, text: &str) -> bool {
        self.bodies.lock().unwrap().iter().any(|body| {
            body.windows(text.len())
                .any(|window| window == text.as_bytes())
        })
    }
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
    let receiver = Receiver::start();
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
    let post = |body: &Value, headers: &[(&str, &str)]| {
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
    };
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

fn an_unspoken_protocol_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    init(&["--data", data]);
    let output = std::process::Command::new(WIKI_MCP)
        .args(["--data", data, "serve", "--listen", "127.0.0.1:0"])
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4317")
        .env("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success(), "serve started without its traces");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported")
            && said.contains("http/protobuf"),
        "{said}"
    );
}
