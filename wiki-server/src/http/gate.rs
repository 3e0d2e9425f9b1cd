//! The front door: what every request passes before it is routed, in this order.
//!
//! 1. A head no honest client sends (a repeated `Authorization`, `Host` or `Origin`, user
//!    information in a URL): `400` ([`malformed`]).
//! 2. A `Host` or `Origin` that is neither loopback nor the public URL: `403`, before anything
//!    that could leak, even a disabled wiki's `404` ([`origin`]).
//! 3. The body, read whole within its cap and deadline: `413`, `408` or `400` ([`body`]).
//!
//! Each request gets its id first ([`super::request_id`]: the client's `x-request-id` when
//! usable, else one of ours), in its extensions for the audit line and echoed in the response.
//!
//! While the server shuts down, every request is answered [`Refusal::ShuttingDown`] with
//! `Connection: close`; the others are counted in flight until their response is sent
//! ([`super::lifecycle`]).
//!
//! On the way out it counts every response by status, the refusals the metrics name (refused
//! authentications, rate-limited requests, store failures), logs a 429 at WARN with the client
//! address, and counts a streamed reply while it is open ([`super::streams`]).
//!
//! One middleware rather than three: each `from_fn` layer boxes the request's future and the
//! rest of the stack again, which on the load bench's trivial call was a measurable share of
//! the CPU; the order above is the one the three layers had.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::HeaderValue;
use http::header::CONNECTION;

use super::body::{self, BodyLimits};
use super::identity::client_address;
use super::lifecycle::{InFlight, Lifecycle};
use super::malformed;
use super::origin::{self, OriginPolicy};
use super::refusal::Refusal;
use super::request_id::{REQUEST_ID, RequestIds};
use super::streams::count_stream;
use super::warnings::Warnings;
use crate::metrics::Metrics;
use crate::server::{Manager, RequestId};

/// What the front door checks requests against.
#[derive(Debug)]
pub(crate) struct Gate {
    /// Whose settings hold the public URL, whose host and origin are accepted.
    pub(crate) manager: Arc<Manager>,
    pub(crate) body: BodyLimits,
    /// The WARN lines of refused requests, bounded per second.
    pub(crate) warnings: Arc<Warnings>,
    /// Where requests that bring no usable id get theirs.
    pub(crate) request_ids: RequestIds,
    /// Requests in flight, and whether the server is shutting down.
    pub(crate) lifecycle: Arc<Lifecycle>,
}

/// The middleware around every route.
pub(crate) async fn admit(
    State(gate): State<Arc<Gate>>,
    mut request: Request,
    next: Next,
) -> Response {
    let address = client_address(&request);
    let pages = request.uri().path().starts_with(PAGES_PREFIX);
    let id = gate.request_ids.of(request.headers());
    if let Some(id) = &id {
        request.extensions_mut().insert(id.clone());
    }
    let (mut response, in_flight) = match gate.lifecycle.enter() {
        Ok(in_flight) => (checked(&gate, request, next).await, Some(in_flight)),
        Err(refusal) => {
            let mut response = refusal.into_response();
            response
                .headers_mut()
                .insert(CONNECTION, HeaderValue::from_static("close"));
            (response, None)
        }
    };
    if let Some(id) = &id {
        response
            .headers_mut()
            .insert(REQUEST_ID, id.header_value().clone());
    }
    gate.observe(response, address, pages, id.as_ref(), in_flight)
}

/// The checks above, then the route.
async fn checked(gate: &Gate, request: Request, next: Next) -> Response {
    if let Some(refusal) = malformed::refusal(&request) {
        return refusal.into_response();
    }
    let origins = OriginPolicy::new(gate.manager.settings().public_url.as_ref());
    if let Some(refusal) = origin::refusal(origins, &request) {
        return refusal.into_response();
    }
    match body::read_whole(&gate.body, request).await {
        Ok(request) => next.run(request).await,
        Err(refusal) => refusal.into_response(),
    }
}

/// Where the signed link pages are, whose rate limit is counted apart.
const PAGES_PREFIX: &str = "/wikis/";

impl Gate {
    /// Counts `response` (and logs it when it is a 429) on its way out.
    fn observe(
        &self,
        response: Response,
        address: IpAddr,
        pages: bool,
        id: Option<&RequestId>,
        in_flight: Option<InFlight>,
    ) -> Response {
        let metrics: &Metrics = self.manager.metrics();
        metrics.response(response.status().as_u16());
        if let Some(refusal) = response.extensions().get::<Refusal>() {
            match refusal {
                Refusal::InvalidToken { .. } | Refusal::TokenRequired { .. } => {
                    metrics.authentication_refused(refusal.code());
                }
                Refusal::RateLimited { retry_after } => {
                    let limit = if pages { "pages" } else { "mcp" };
                    metrics.rate_limited(limit);
                    self.warnings.warn(|| {
                        tracing::warn!(
                            client = %address,
                            request_id = id.map_or("-", RequestId::as_str),
                            limit,
                            retry_after,
                            "rate limited: answered 429"
                        );
                    });
                }
                Refusal::StoreUnavailable => metrics.store_error("unavailable"),
                Refusal::StoreFailed => metrics.store_error("failed"),
                _ => {}
            }
        }
        count_stream(response, &metrics.open_streams, in_flight)
    }
}
