//! The standalone GET stream of protocol 2025-11-25 and earlier: a client that opens it hears
//! `notifications/tools/list_changed` when its tool list changes and
//! `notifications/resources/list_changed` when its skills do (`list_changes.rs`), and a
//! keep-alive comment while nothing happens.
//!
//! The stream is answered here rather than by rmcp, whose stateless mode refuses GET: it needs
//! no session, only the caller the identity step admitted, so any replica serves it. It carries
//! no event ids, so there is nothing to resume: a client that reconnects re-lists its tools.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use http::HeaderValue;
use http::header::{ACCEPT, CACHE_CONTROL, CONTENT_TYPE};
use rmcp::model::{
    ResourceListChangedNotification, ServerJsonRpcMessage, ServerNotification,
    ToolListChangedNotification,
};

use tokio_util::sync::CancellationToken;

use super::cancel_on_drop::CancelOnDrop;
use super::direct::sse_event;
use super::identity::{Admitted, Credentials, client_address, credentials};
use super::list_changes::{Heard, Topics};
use super::refusal::Refusal;
use super::router::Shared;

/// The event stream's media type.
const EVENT_STREAM: &str = "text/event-stream";

/// Answers `GET` on the MCP endpoint for an admitted caller: the change stream, or a refusal
/// (the client does not accept an event stream; too many streams are open).
pub(crate) async fn standalone_stream(
    shared: Arc<Shared>,
    admitted: Admitted,
    request: Request,
) -> Response {
    if !accepts_event_stream(request.headers()) {
        return Refusal::NotAcceptable.into_response();
    }
    let token = match credentials(request.headers()) {
        Credentials::Bearer(token) => Some(token),
        Credentials::None | Credentials::Unusable => None,
    };
    let key = match admitted.caller.user_name() {
        Some(user) => format!("user:{user}"),
        None => format!("guest:{}", client_address(&request)),
    };
    let mut listener = match shared
        .list_changes
        .open(admitted.caller, token, key, Topics::ALL)
        .await
    {
        Ok(listener) => listener,
        Err(too_many) => {
            return Refusal::TooManyStreams {
                text: too_many.text(),
            }
            .into_response();
        }
    };
    let (mut events, body) = http_body_util::channel::Channel::<Bytes>::new(4);
    // Hyper drops the body when the client goes away: the stream's place is given back then,
    // not at its next keep-alive.
    let gone = CancellationToken::new();
    let body = CancelOnDrop::new(body, gone.clone().drop_guard());
    tokio::spawn(async move {
        let tools_changed = sse_event(&ServerJsonRpcMessage::notification(
            ServerNotification::ToolListChangedNotification(ToolListChangedNotification::default()),
        ));
        let skills_changed = sse_event(&ServerJsonRpcMessage::notification(
            ServerNotification::ResourceListChangedNotification(
                ResourceListChangedNotification::default(),
            ),
        ));
        // A first comment sends the head now, so the client knows the stream is open.
        let mut open = events
            .send_data(Bytes::from_static(b": open\n\n"))
            .await
            .is_ok();
        while open {
            let heard = tokio::select! {
                () = gone.cancelled() => break,
                heard = listener.next() => heard,
            };
            open = match heard {
                Heard::Changed(changed) => {
                    let mut sent = true;
                    if changed.tools {
                        sent = events.send_data(tools_changed.clone()).await.is_ok();
                    }
                    if changed.skills && sent {
                        sent = events.send_data(skills_changed.clone()).await.is_ok();
                    }
                    sent
                }
                Heard::Idle => events
                    .send_data(Bytes::from_static(b": keep-alive\n\n"))
                    .await
                    .is_ok(),
                Heard::ShuttingDown | Heard::NotAdmitted => false,
            };
        }
    });
    (
        [
            (CONTENT_TYPE, HeaderValue::from_static(EVENT_STREAM)),
            (CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        Body::new(body),
    )
        .into_response()
}

/// Whether `Accept` lists `text/event-stream` (or `*/*`, `text/*`).
fn accepts_event_stream(headers: &http::HeaderMap) -> bool {
    headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(|item| item.split(';').next().unwrap_or_default().trim())
        .any(|media| {
            media.eq_ignore_ascii_case(EVENT_STREAM)
                || media == "*/*"
                || media.eq_ignore_ascii_case("text/*")
        })
}
