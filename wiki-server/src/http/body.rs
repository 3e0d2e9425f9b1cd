//! The request body: read whole, within a size cap and a deadline, before any handler runs.
//!
//! Without a deadline a client can hold a connection (and the handler's task) by trickling a
//! body one byte at a time; without a cap, by sending one that never ends. Every body this
//! server accepts is a JSON-RPC message that the handler reads whole anyway, so reading it here
//! costs nothing extra and gives every route the same answers: `413` past the cap (at once when
//! `Content-Length` says so), `408` past the deadline, `400` for a body that breaks off.

use std::time::Duration;

use axum::body::Body;
use axum::body::HttpBody as _;
use axum::extract::Request;
use http::header::CONTENT_LENGTH;
use http_body_util::LengthLimitError;

use super::refusal::Refusal;

/// The cap and the deadline of request bodies.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyLimits {
    pub(crate) max_bytes: usize,
    pub(crate) timeout: Duration,
}

/// The request with its body in memory, or the answer to give instead.
pub(crate) async fn read_whole(limits: &BodyLimits, request: Request) -> Result<Request, Refusal> {
    if request.body().is_end_stream() {
        return Ok(request);
    }
    let declared = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limits.max_bytes as u64) {
        return Err(Refusal::BodyTooLarge {
            max: limits.max_bytes,
        });
    }
    let (parts, body) = request.into_parts();
    let read = tokio::time::timeout(limits.timeout, axum::body::to_bytes(body, limits.max_bytes));
    let bytes = match read.await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(error)) => {
            if is_length_limit(&error) {
                return Err(Refusal::BodyTooLarge {
                    max: limits.max_bytes,
                });
            }
            tracing::debug!(%error, "a request body broke off");
            return Err(Refusal::BodyUnreadable);
        }
        Err(_) => {
            return Err(Refusal::BodyTimeout {
                seconds: limits.timeout.as_secs_f64(),
            });
        }
    };
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

fn is_length_limit(error: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(current) = source {
        if current.is::<LengthLimitError>() {
            return true;
        }
        source = current.source();
    }
    false
}
