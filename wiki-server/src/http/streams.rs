//! Streamed replies (server-sent events) counted while they are open: the handler's future has
//! returned by then, so what is open is the body, and the body holds the count, and the
//! request's place among those in flight that a shutdown waits for (`lifecycle.rs`).

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::response::Response;
use http::header::CONTENT_TYPE;
use hyper::body::{Frame, SizeHint};
use prometheus::IntGauge;

use super::lifecycle::InFlight;

/// `response` with its body counted in `open`, and holding `in_flight`, until hyper drops it,
/// when it is an event stream; any other response as it is (its body is sent at once, nothing
/// to count; `in_flight` ends now).
pub(crate) fn count_stream(
    response: Response,
    open: &IntGauge,
    in_flight: Option<InFlight>,
) -> Response {
    let streamed = response
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes().starts_with(b"text/event-stream"));
    if !streamed {
        return response;
    }
    open.inc();
    let held = (Open(open.clone()), in_flight);
    response.map(|inner| Body::new(Holding { inner, _held: held }))
}

/// One open stream of the gauge; closed when dropped.
struct Open(IntGauge);

impl Drop for Open {
    fn drop(&mut self) {
        self.0.dec();
    }
}

/// `inner`, holding `_held` as long as the body lives.
struct Holding<G> {
    inner: Body,
    _held: G,
}

impl<G: Unpin> hyper::body::Body for Holding<G> {
    type Data = <Body as hyper::body::Body>::Data;
    type Error = <Body as hyper::body::Body>::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use axum::response::IntoResponse;
    use http::HeaderValue;

    use super::*;

    #[test]
    fn an_event_stream_is_counted_until_its_body_is_dropped() {
        let open = IntGauge::new("open", "open streams").unwrap_or_else(|error| panic!("{error}"));
        let plain = count_stream("done".into_response(), &open, None);
        assert_eq!(open.get(), 0, "a plain reply is not a stream");
        drop(plain);
        let mut stream = "data: {}\n\n".into_response();
        stream
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
        let stream = count_stream(stream, &open, None);
        assert_eq!(open.get(), 1);
        drop(stream);
        assert_eq!(open.get(), 0);
    }
}
