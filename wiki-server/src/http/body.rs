//! The request body: read whole, within a size cap and a deadline, before any handler runs.
//!
//! Without a deadline a client can hold a connection (and the handler's task) by trickling a
//! body one byte at a time; without a cap, by sending one that never ends. Every body this
//! server accepts is a JSON-RPC message that the handler reads whole anyway, so reading it here
//! costs nothing extra and gives every route the same answers: `413` past the cap (at once when
//! `Content-Length` says so), `408` past the deadline, `400` for a body that breaks off.
//!
//! A JSON body is also counted before anything parses it ([`json_shape_within`]): parsed into
//! a tree, each value costs tens of bytes beside its text, so a body of short keys within the
//! byte cap (13 MB of 700,000 keys) would cost hundreds of megabytes. Past [`MAX_JSON_VALUES`]
//! values or [`MAX_JSON_DEPTH`] levels it is refused with `413`, with no tree built.

use std::time::Duration;

use axum::body::Body;
use axum::body::HttpBody as _;
use axum::extract::Request;
use http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use http_body_util::LengthLimitError;

use super::refusal::Refusal;

/// Values a JSON body may hold: far more than any call's arguments (a page's content is one
/// string), few enough that a parsed tree of them stays within a few tens of megabytes.
pub(crate) const MAX_JSON_VALUES: usize = 100_000;

/// Levels a JSON body may nest.
pub(crate) const MAX_JSON_DEPTH: usize = 64;

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
    let json = parts
        .headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.to_ascii_lowercase().contains("json"));
    if json && !json_shape_within(&bytes, MAX_JSON_VALUES, MAX_JSON_DEPTH) {
        return Err(Refusal::BodyTooComplex {
            values: MAX_JSON_VALUES,
            depth: MAX_JSON_DEPTH,
        });
    }
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// Whether JSON text `bytes` holds at most `max_values` values (counted as the separators and
/// openers outside strings: an upper bound for valid JSON, one pass, no allocation) and nests
/// at most `max_depth` arrays and objects. Invalid JSON is left to the parser's error.
fn json_shape_within(bytes: &[u8], max_values: usize, max_depth: usize) -> bool {
    let (mut values, mut depth) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &byte in bytes {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                values += 1;
                if depth > max_depth {
                    return false;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' => values += 1,
            _ => continue,
        }
        if values > max_values {
            return false;
        }
    }
    true
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_depth_are_counted_outside_strings() {
        let keys = |n: usize| {
            let body: Vec<String> = (0..n).map(|i| format!("\"k{i}\":0")).collect();
            format!("{{{}}}", body.join(","))
        };
        assert!(json_shape_within(keys(10).as_bytes(), 11, 4));
        assert!(!json_shape_within(keys(20).as_bytes(), 11, 4));
        assert!(json_shape_within(br#"{"a":"[[[[[,,,,,\"[[["}"#, 2, 1));
        assert!(json_shape_within(b"[[[]]]", 3, 3));
        assert!(!json_shape_within(b"[[[[]]]]", 10, 3));
    }
}
