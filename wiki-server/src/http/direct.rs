//! The direct answer to a plain `tools/call`: the hot path, without rmcp's per-request service.
//!
//! In stateless mode rmcp serves every POST by decoding it into its full message enum (an
//! untagged, flattened serde path), then spawning a one-shot service task wired to the handler
//! through channels and cancellation tokens. For `tools/call`, the request agents send all day,
//! that machinery is most of the cost of a call (measured: `tests/benches/load.rs`, with this
//! path and without it). This middleware answers that one request itself, through the same
//! [`Manager::call`](crate::Manager::call) the rmcp handler runs and with rmcp's own model
//! types for the reply, so the answer is the one rmcp would give, byte for byte in meaning (the
//! tests compare both).
//!
//! It only takes requests it is sure about, and hands everything else, untouched, to rmcp:
//!
//! - a POST whose `Accept` lists `application/json` and `text/event-stream` plainly (no
//!   parameters, no quotes), whose `Content-Type` is JSON, with a `Content-Length` within the
//!   body cap (a chunked body or a larger one goes to rmcp, which streams and caps it);
//! - no `MCP-Protocol-Version` header, or one naming a known version older than 2026-07-28
//!   (from 2026-07-28 on, requests carry their protocol in `_meta` and the standard headers
//!   must match the body: rmcp checks those);
//! - a body that is exactly `{"jsonrpc": "2.0", "id", "method": "tools/call", "params":
//!   {"name", "arguments"?, "_meta"?: {"progressToken"}}}`: any other member (per-request
//!   protocol metadata in `_meta`, a task request), another method, a notification, a batch or
//!   malformed JSON goes to rmcp, which has the rules and the error messages for all of them.
//!
//! The wiki, the caller and the wiki's server come from the identity step (`identity.rs`), which
//! runs in the same middleware just before; rmcp gets them in the request's extensions.
//!
//! An authenticated caller's call is registered in this replica's in-flight registry while it
//! runs (`in_flight.rs`), and a POST of `notifications/cancelled` (which takes the same header
//! checks, then goes on to rmcp, which answers it 202 as before) cancels it. That holds with
//! direct answers off too: the body of such a POST is then read here only to hear the cancel.
//!
//! A client on a protocol before 2026-07-28 that declares form elicitation at `initialize` gets
//! an `Mcp-Session-Id` on rmcp's reply (`asking_session.rs`). An authenticated call carrying it
//! is always answered here, on an event stream when it asks its person a question: the
//! `elicitation/create` goes out on the call's stream, and the client's POSTed answer is
//! handed to the waiting call here (`answers.rs`) or refused.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::header::{ACCEPT, CONTENT_LENGTH, CONTENT_TYPE};
use http::{HeaderMap, HeaderValue, Method, StatusCode};
use rmcp::model::{
    Notification, ProgressNotificationParam, ProgressToken, ProtocolVersion, RequestId,
    ServerJsonRpcMessage, ServerNotification, ServerResult,
};
use serde::Deserialize;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::answers::{ClientAnswer, StreamAsk};
use super::asking_session::{AskingSession, SESSION_HEADER, session_for_initialize};
use super::cancel_on_drop::CancelOnDrop;
use super::identity::Admitted;
use super::in_flight::CancelScope;
use super::refusal::Refusal;
use super::router::Shared;
use mcp_runtime::call::ToolCall;
use mcp_runtime::elicit::Elicitation;
use mcp_runtime::param::JsonObject;
use mcp_runtime::signals::{ProgressSink, ProgressUpdate};

const JSON: &str = "application/json";
const EVENT_STREAM: &str = "text/event-stream";
const PROTOCOL_VERSION_HEADER: &str = "mcp-protocol-version";

/// The only request shape answered here; anything else fails to parse and goes to rmcp.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolCallRequest<'a> {
    jsonrpc: &'a str,
    id: RequestId,
    method: &'a str,
    params: ToolCallParams,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolCallParams {
    name: String,
    #[serde(default)]
    arguments: Option<JsonObject>,
    /// A progress token and nothing else.
    #[serde(default, rename = "_meta")]
    meta: Option<ProgressOnly>,
}

/// `_meta` holding a progress token and nothing else (rmcp's client sends one with every
/// call); any other `_meta` member (per-request protocol metadata) goes to rmcp.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProgressOnly {
    #[serde(rename = "progressToken")]
    progress_token: Option<ProgressToken>,
}

impl ToolCallRequest<'_> {
    fn parse(body: &[u8]) -> Option<ToolCallRequest<'_>> {
        serde_json::from_slice::<ToolCallRequest<'_>>(body)
            .ok()
            .filter(|request| request.jsonrpc == "2.0" && request.method == "tools/call")
    }
}

/// The answer to an admitted request: a plain `tools/call` here, anything else by rmcp (`next`),
/// which then finds the caller in the request's extensions.
pub(crate) async fn answer_tool_calls(
    shared: Arc<Shared>,
    admitted: Admitted,
    request: Request,
    next: Next,
) -> Response {
    let limit = shared.options.max_body_bytes;
    let direct = shared.options.direct_tool_calls;
    let eligible = eligible_headers(request.headers(), limit);
    let session = AskingSession::of_request(request.headers());
    let authenticated = admitted.scope.is_some();
    // With direct answers off, a body is read here only to hear a cancel (`in_flight.rs`) or
    // an answer to a question, and an asking session's answer is heard whatever its headers.
    let read = (eligible && (direct || authenticated)) || (authenticated && session.is_some());
    if request.method() != Method::POST || !read {
        return to_rmcp(admitted, request, next).await;
    }
    let (parts, body) = request.into_parts();
    let body = match axum::body::to_bytes(body, limit).await {
        Ok(body) => body,
        Err(error) => {
            tracing::debug!(%error, "could not read a request body");
            return Refusal::BodyUnreadable.into_response();
        }
    };
    // A call of a client that declared elicitation at initialize is answered here whatever
    // the setting: only here can it carry a question (`answers.rs`).
    let asking = (admitted.scope.as_ref().map(CancelScope::credential))
        .zip(session.clone())
        .filter(|_| eligible);
    let Some(call) =
        ToolCallRequest::parse(&body).filter(|_| eligible && (direct || asking.is_some()))
    else {
        if let Some(answer) = ClientAnswer::parse(&body) {
            return answer_question(&shared, admitted.scope.as_ref(), session, answer);
        }
        // rmcp answers a notification 202 and drops it: a cancel is heard here first.
        if let Some(scope) = &admitted.scope {
            scope.hear(&body);
        }
        let asks = session_for_initialize(&body);
        let mut response =
            to_rmcp(admitted, Request::from_parts(parts, Body::from(body)), next).await;
        if let Some(session) = asks.filter(|_| response.status().is_success()) {
            response.headers_mut().insert(SESSION_HEADER, session);
        }
        return response;
    };
    let Admitted {
        caller,
        server,
        scope,
    } = admitted;
    tracing::debug!(wiki = %caller.wiki(), id = ?call.id, "answering a tools/call directly");
    let id = call.id;
    let progress_token = call.params.meta.and_then(|meta| meta.progress_token);
    // Cancelled when the client goes away: hyper drops this future, or once the reply
    // streams, the body; the guard moves from the one to the other.
    let cancellation = CancellationToken::new();
    let disconnect = cancellation.clone().drop_guard();
    // A `notifications/cancelled` with this id and credential cancels it too, while it runs.
    let registration = scope
        .as_ref()
        .map(|scope| scope.register(id.clone(), cancellation.clone()));
    let mut request = ToolCall::new(call.params.name, call.params.arguments.unwrap_or_default())
        .with_cancellation(cancellation.clone());
    if progress_token.is_none() && asking.is_none() {
        let message = reply(shared.manager().call(&server, &caller, request).await, id);
        drop(registration);
        drop(disconnect);
        return json_response(&message);
    }
    // The reply is JSON when the call finished without sending anything first (as rmcp
    // answers), else an SSE stream of what it sent (progress, a question), then the reply: a
    // fast scan's reports are queued by the time its reply is, and still reach the client.
    let (notify, mut notifications) = mpsc::unbounded_channel();
    if let Some(token) = progress_token {
        request = request.with_progress(Arc::new(StreamProgress {
            token,
            notify: notify.clone(),
        }));
    }
    if let Some((credential, session)) = asking {
        request = request.with_elicitation(Elicitation::Relayed(Arc::new(StreamAsk {
            answers: Arc::clone(&shared.answers),
            credential,
            session,
            stream: notify,
        })));
    }
    let mut running = Box::pin(async move {
        let message = reply(shared.manager().call(&server, &caller, request).await, id);
        drop(registration);
        message
    });
    let (first, finished) = tokio::select! {
        biased;
        message = &mut running => match notifications.try_recv() {
            Ok(first) => (first, Some(message)),
            Err(_) => {
                drop(disconnect);
                return json_response(&message);
            }
        },
        Some(first) = notifications.recv() => (first, None),
    };
    let (mut events, body) = http_body_util::channel::Channel::<Bytes>::new(8);
    // From here hyper drops the body, not this future, when the client goes away.
    let body = CancelOnDrop::new(body, disconnect);
    tokio::spawn(async move {
        let mut send = async |message: &ServerJsonRpcMessage| {
            events.send_data(sse_event(message)).await.is_ok()
        };
        let mut open = send(&first).await;
        if let Some(message) = finished {
            while let Ok(notification) = notifications.try_recv() {
                send(&notification).await;
            }
            send(&message).await;
            return;
        }
        while open {
            tokio::select! {
                biased;
                message = &mut running => {
                    while let Ok(notification) = notifications.try_recv() {
                        send(&notification).await;
                    }
                    send(&message).await;
                    return;
                }
                Some(notification) = notifications.recv() => open = send(&notification).await,
            }
        }
        // The client went away: the body's guard cancelled the call, and dropping `running`
        // stops polling it.
    });
    (
        [(CONTENT_TYPE, HeaderValue::from_static(EVENT_STREAM))],
        Body::new(body),
    )
        .into_response()
}

/// The reply to a POSTed JSON-RPC response: 202 when a question of this replica waited for
/// it, else the refusal (`answers.rs`).
fn answer_question(
    shared: &Shared,
    scope: Option<&CancelScope>,
    session: Option<AskingSession>,
    answer: ClientAnswer,
) -> Response {
    let Some(scope) = scope else {
        return Refusal::AnswerUnexpected.into_response();
    };
    match shared.answers.deliver(scope.credential(), session, answer) {
        Ok(()) => StatusCode::ACCEPTED.into_response(),
        Err(refusal) => {
            tracing::info!(code = refusal.code(), "an answer to a question was refused");
            refusal.into_response()
        }
    }
}

/// rmcp's answer, with the caller handed to its handler.
async fn to_rmcp(admitted: Admitted, mut request: Request, next: Next) -> Response {
    admitted.into_extensions(request.extensions_mut());
    next.run(request).await
}

/// The JSON-RPC reply to a call: what rmcp's handler sends a peer before 2026-07-28 (the only
/// ones served here).
fn reply(
    result: Result<rmcp::model::CallToolResult, rmcp::ErrorData>,
    id: RequestId,
) -> ServerJsonRpcMessage {
    match result {
        Ok(result) => {
            let mut result = ServerResult::CallToolResult(result);
            result.strip_result_type_for_legacy_peer();
            result.strip_non_object_output_for_legacy_peer();
            ServerJsonRpcMessage::response(result, id)
        }
        Err(error) => ServerJsonRpcMessage::error(error, Some(id)),
    }
}

/// A direct call's progress: each report a `notifications/progress` on the call's stream.
struct StreamProgress {
    token: ProgressToken,
    notify: mpsc::UnboundedSender<ServerJsonRpcMessage>,
}

impl ProgressSink for StreamProgress {
    fn send(&self, update: ProgressUpdate) {
        let mut param = ProgressNotificationParam::new(self.token.clone(), update.progress);
        param.total = update.total;
        param.message = update.message;
        let notification = ServerNotification::ProgressNotification(Notification::new(param));
        // The receiver is gone only once the reply was sent: nothing left to report to.
        let _ = self
            .notify
            .send(ServerJsonRpcMessage::notification(notification));
    }
}

/// One SSE event carrying `message`.
pub(crate) fn sse_event(message: &ServerJsonRpcMessage) -> Bytes {
    match serde_json::to_string(message) {
        Ok(data) => Bytes::from(format!("data: {data}\n\n")),
        Err(error) => {
            tracing::error!(%error, "could not serialize a message of a tools/call stream");
            Bytes::new()
        }
    }
}

/// The JSON reply rmcp gives in stateless JSON mode: 200, `application/json`, the message.
fn json_response(message: &ServerJsonRpcMessage) -> Response {
    match serde_json::to_vec(message) {
        Ok(body) => (
            [(CONTENT_TYPE, HeaderValue::from_static(JSON))],
            Bytes::from(body),
        )
            .into_response(),
        Err(error) => {
            tracing::error!(%error, "could not serialize a tools/call reply");
            Refusal::Internal.into_response()
        }
    }
}

/// Whether the headers are ones rmcp would accept for a stateless call without asking more of
/// the body than [`ToolCallRequest`] reads.
fn eligible_headers(headers: &HeaderMap, limit: usize) -> bool {
    accepts_json_and_event_stream(headers)
        && content_type_is_json(headers)
        && content_length(headers).is_some_and(|length| length <= limit)
        && protocol_needs_no_metadata(headers)
}

fn accepts_json_and_event_stream(headers: &HeaderMap) -> bool {
    let (mut json, mut event_stream) = (false, false);
    for value in headers.get_all(ACCEPT) {
        let Ok(value) = value.to_str() else {
            return false;
        };
        if value.contains('"') {
            return false;
        }
        for entry in value.split(',').map(str::trim) {
            json |= entry.eq_ignore_ascii_case(JSON);
            event_stream |= entry.eq_ignore_ascii_case(EVENT_STREAM);
        }
    }
    json && event_stream
}

fn content_type_is_json(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            let essence = value.split_once(';').map_or(value, |(essence, _)| essence);
            essence.trim().eq_ignore_ascii_case(JSON)
        })
}

fn content_length(headers: &HeaderMap) -> Option<usize> {
    headers.get(CONTENT_LENGTH)?.to_str().ok()?.parse().ok()
}

/// No protocol header (rmcp assumes 2025-03-26), or a known version from before per-request
/// metadata and standard headers.
fn protocol_needs_no_metadata(headers: &HeaderMap) -> bool {
    let mut values = headers.get_all(PROTOCOL_VERSION_HEADER).iter();
    let Some(value) = values.next() else {
        return true;
    };
    let Ok(version) = value.to_str() else {
        return false;
    };
    values.next().is_none()
        && version < ProtocolVersion::V_2026_07_28.as_str()
        && version < ProtocolVersion::STANDARD_HEADERS.as_str()
        && ProtocolVersion::KNOWN_VERSIONS
            .iter()
            .any(|known| known.as_str() == version)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(*name, HeaderValue::from_static(value));
        }
        headers
    }

    const PLAIN: &[(&str, &str)] = &[
        ("accept", "application/json, text/event-stream"),
        ("content-type", "application/json"),
        ("content-length", "100"),
    ];

    #[test]
    fn plain_headers_are_eligible_and_anything_unusual_is_left_to_rmcp() {
        assert!(eligible_headers(&headers(PLAIN), 1000));
        assert!(!eligible_headers(&headers(PLAIN), 99), "over the cap");
        let with = |extra: (&'static str, &'static str)| {
            let mut pairs = PLAIN.to_vec();
            pairs.retain(|(name, _)| *name != extra.0);
            pairs.push(extra);
            eligible_headers(&headers(&pairs), 1000)
        };
        assert!(with(("mcp-protocol-version", "2025-06-18")));
        assert!(with(("mcp-protocol-version", "2024-11-05")));
        assert!(!with(("mcp-protocol-version", "2026-07-28")));
        assert!(!with(("mcp-protocol-version", "2099-01-01")));
        assert!(!with(("mcp-protocol-version", "nonsense")));
        assert!(with(("content-type", "application/json; charset=utf-8")));
        assert!(!with(("content-type", "text/plain")));
        assert!(!with(("accept", "application/json")));
        assert!(!with(("accept", "application/json;q=0, text/event-stream")));
        assert!(!with((
            "accept",
            r#"application/json;p="a,b", text/event-stream"#
        )));
        let mut chunked = PLAIN.to_vec();
        chunked.retain(|(name, _)| *name != "content-length");
        assert!(!eligible_headers(&headers(&chunked), 1000));
    }

    #[test]
    fn only_a_plain_tools_call_is_answered_here() {
        let parse = |body: &str| ToolCallRequest::parse(body.as_bytes()).is_some();
        assert!(parse(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"man"}}"#
        ));
        assert!(parse(
            r#"{"params":{"arguments":{"a":1},"name":"man"},"id":"x","method":"tools/call","jsonrpc":"2.0"}"#
        ));
        assert!(!parse(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"man"}}"#
        ));
        assert!(!parse(
            r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"man"}}"#
        ));
        assert!(parse(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"man","_meta":{"progressToken":1}}}"#
        ));
        assert!(!parse(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"man","_meta":{"progressToken":1,"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#
        ));
        assert!(!parse(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"man","_meta":{"progressToken":{}}}}"#
        ));
        assert!(!parse(
            r#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"man"}}"#
        ));
        assert!(!parse(
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"man"}}"#
        ));
        assert!(!parse(
            r#"[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"man"}}]"#
        ));
    }
}
