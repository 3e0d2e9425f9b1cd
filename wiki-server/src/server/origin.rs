//! Where a call came from, beyond who made it: the id of the request that carried it, for the
//! audit line, and the caller's trace, which the call's span joins.
//!
//! The HTTP transport fills it from each request ([`crate::http`]: the `x-request-id` the
//! client sent or one of ours, the W3C `traceparent` and `tracestate` headers); a call's own
//! `_meta.traceparent` (protocol 2026-07-28) replaces the header's trace for that call
//! ([`Manager::call`](crate::Manager::call)); stdio and tests leave it empty otherwise.

use std::fmt;

use http::{HeaderMap, HeaderValue};
use opentelemetry::propagation::{Extractor, TextMapPropagator};
use opentelemetry::trace::{SpanContext, TraceContextExt};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use serde_json::{Map, Value};

/// A request's id: the client's `x-request-id` when it sent a usable one, else one this
/// process made. Cheap to clone (shared bytes).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RequestId(HeaderValue);

impl RequestId {
    /// The longest id taken from a client.
    pub const MAX_LEN: usize = 128;

    /// `value` as an id, if it is one a log line may carry as it is: 1 to
    /// [`RequestId::MAX_LEN`] characters among letters, digits and `-._~:/+=`.
    pub fn from_client(value: &HeaderValue) -> Option<Self> {
        let bytes = value.as_bytes();
        let usable = !bytes.is_empty()
            && bytes.len() <= Self::MAX_LEN
            && bytes
                .iter()
                .all(|byte| byte.is_ascii_alphanumeric() || b"-._~:/+=".contains(byte));
        usable.then(|| RequestId(value.clone()))
    }

    /// An id of this process's making (`text` must be a valid header value).
    pub(crate) fn made(text: String) -> Option<Self> {
        HeaderValue::try_from(text).ok().map(RequestId)
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        // Only visible ASCII gets in (above).
        self.0.to_str().unwrap_or("-")
    }

    /// The id as a header value, to echo.
    pub fn header_value(&self) -> &HeaderValue {
        &self.0
    }
}

impl fmt::Debug for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The span a caller's trace continues from: a W3C Trace Context `traceparent` (with its
/// `tracestate`), read by OpenTelemetry's own propagator. Only a valid one is kept; a malformed
/// value is ignored as the Trace Context recommendation says (the call starts a trace of its
/// own).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TraceParent(SpanContext);

impl TraceParent {
    /// The trace of the `traceparent` and `tracestate` HTTP headers in `headers`.
    pub fn from_headers(headers: &HeaderMap) -> Option<Self> {
        let text = |name| headers.get(name).and_then(|value| value.to_str().ok());
        Self::parse(text("traceparent")?, text("tracestate"))
    }

    /// The trace of a request's `_meta` keys `traceparent` and `tracestate` (protocol
    /// 2026-07-28).
    pub fn from_meta(meta: &Map<String, Value>) -> Option<Self> {
        let text = |name| meta.get(name).and_then(Value::as_str);
        Self::parse(text("traceparent")?, text("tracestate"))
    }

    fn parse(traceparent: &str, tracestate: Option<&str>) -> Option<Self> {
        let fields = W3cFields {
            traceparent,
            tracestate,
        };
        let context = TraceContextPropagator::new().extract(&fields);
        let span = context.span().span_context().clone();
        span.is_valid().then_some(TraceParent(span))
    }

    /// The caller's span, as OpenTelemetry holds it.
    pub fn span_context(&self) -> &SpanContext {
        &self.0
    }
}

/// The two Trace Context fields, as the propagator reads them.
struct W3cFields<'a> {
    traceparent: &'a str,
    tracestate: Option<&'a str>,
}

impl Extractor for W3cFields<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        match key {
            "traceparent" => Some(self.traceparent),
            "tracestate" => self.tracestate,
            _ => None,
        }
    }

    fn keys(&self) -> Vec<&str> {
        let mut keys = vec!["traceparent"];
        keys.extend(self.tracestate.map(|_| "tracestate"));
        keys
    }
}

/// What the transport knows of a call's request.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct CallOrigin {
    /// The request's id.
    pub request_id: Option<RequestId>,
    /// The caller's trace, which the call's span joins.
    pub trace_parent: Option<TraceParent>,
}

impl CallOrigin {
    /// The request id for a log line: the id, or `-`.
    pub fn request_id_str(&self) -> &str {
        self.request_id.as_ref().map_or("-", RequestId::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_short_ids_are_taken_from_clients() {
        let id = |text: &'static str| RequestId::from_client(&HeaderValue::from_static(text));
        assert_eq!(
            id("0b9c2a1e-5f3d-4c8e-9a7b-1d2e3f4a5b6c").map(|id| id.to_string()),
            Some("0b9c2a1e-5f3d-4c8e-9a7b-1d2e3f4a5b6c".to_owned())
        );
        assert!(id("Root=1-abc/def+ghi=").is_some());
        assert!(id("").is_none());
        assert!(id("a b").is_none(), "a space could forge a log field");
        assert!(id("a\"b").is_none());
        let long = HeaderValue::from_str(&"x".repeat(RequestId::MAX_LEN + 1)).ok();
        assert!(long.is_some_and(|long| RequestId::from_client(&long).is_none()));
    }

    #[test]
    fn only_a_valid_traceparent_is_a_parent() {
        let parent = |text: &str| {
            let mut meta = Map::new();
            meta.insert("traceparent".to_owned(), Value::from(text));
            meta.insert("tracestate".to_owned(), Value::from("vendor=value"));
            TraceParent::from_meta(&meta)
        };
        let kept = parent("00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01");
        let span = kept.as_ref().map(TraceParent::span_context);
        assert_eq!(
            span.map(|span| span.trace_id().to_string()),
            Some("0af7651916cd43dd8448eb211c80319c".to_owned())
        );
        assert!(span.is_some_and(|span| span.is_remote() && span.is_sampled()));
        assert_eq!(
            span.and_then(|span| span.trace_state().get("vendor")),
            Some("value")
        );
        assert!(parent("00-00000000000000000000000000000000-00f067aa0ba902b7-01").is_none());
        assert!(parent("00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7").is_none());
        assert!(parent("not a traceparent").is_none());
        assert!(TraceParent::from_meta(&Map::new()).is_none());
    }
}
