//! Each call's OpenTelemetry span, made from its audit record when the call has finished.
//!
//! The span is a child of the caller's trace when the request carried one
//! ([`CallOrigin::trace_parent`]), else the root of a trace of its own. It holds what the audit
//! line holds, minus the user: the tool, the wiki, the outcome and the failure's category, the
//! request id, and the call's duration as its start and end times. Never an argument value, nor
//! an error message (which may quote one).
//!
//! Spans go to the global tracer provider, which is a no-op until the binary installs an
//! exporter (the command line does when `OTEL_EXPORTER_OTLP_ENDPOINT` is set). The span is
//! started bare and its name and attributes are made only when it records: without an exporter
//! (or for a caller whose trace is not sampled) a call pays for one non-recording span, not for
//! the strings of its attributes.

use std::time::SystemTime;

use mcp_runtime::audit::{AuditRecord, Outcome};
use opentelemetry::trace::{Span as _, SpanKind, Status, TraceContextExt, Tracer};
use opentelemetry::{Context, KeyValue, global};

use crate::server::CallOrigin;

/// The instrumentation scope the spans are made under.
const SCOPE: &str = "wiki-server";

/// Sends `record`'s span, on `wiki`, as a child of `origin`'s trace when it has one.
pub(super) fn send(record: &AuditRecord<'_>, wiki: &str, origin: Option<&CallOrigin>) {
    let tracer = global::tracer(SCOPE);
    let end = SystemTime::now();
    let start = end.checked_sub(record.duration).unwrap_or(end);
    let parent = match origin.and_then(|origin| origin.trace_parent.as_ref()) {
        Some(parent) => Context::new().with_remote_span_context(parent.span_context().clone()),
        None => Context::new(),
    };
    let mut span = tracer
        .span_builder("tools/call")
        .with_kind(SpanKind::Server)
        .with_start_time(start)
        .start_with_context(&tracer, &parent);
    if !span.is_recording() {
        return;
    }
    span.update_name(format!("tools/call {}", record.tool));
    let mut attributes = vec![
        KeyValue::new("mcp.method.name", "tools/call"),
        KeyValue::new("gen_ai.operation.name", "execute_tool"),
        KeyValue::new("gen_ai.tool.name", record.tool.to_owned()),
        KeyValue::new("wiki_mcp.wiki", wiki.to_owned()),
        KeyValue::new("wiki_mcp.outcome", record.outcome.as_str()),
        KeyValue::new(
            "wiki_mcp.duration_ms",
            i64::try_from(record.duration_ms()).unwrap_or(i64::MAX),
        ),
    ];
    if let Some(reason) = record.reason {
        attributes.push(KeyValue::new("error.type", reason.as_str()));
    }
    if let Some(id) = origin.and_then(|origin| origin.request_id.as_ref()) {
        attributes.push(KeyValue::new("wiki_mcp.request_id", id.as_str().to_owned()));
    }
    span.set_attributes(attributes);
    // Failures of the server's own (a panic, a broken output schema, the timeout) are errors;
    // an agent-facing error is the agent's, as a 4xx is the client's on an HTTP server span.
    if matches!(record.outcome, Outcome::Failed | Outcome::Timeout) {
        span.set_status(Status::error(record.outcome.as_str()));
    }
    span.end_with_timestamp(end);
}
