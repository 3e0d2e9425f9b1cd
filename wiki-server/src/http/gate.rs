//! The front door: what every request passes before it is routed, in this order.
//!
//! 1. A head no honest client sends (a repeated `Authorization`, `Host` or `Origin`, user
//!    information in a URL): `400` ([`malformed`]).
//! 2. A `Host` or `Origin` that is neither loopback nor the public URL: `403`, before anything
//!    that could leak, even a disabled wiki's `404` ([`origin`]).
//! 3. The body, read whole within its cap and deadline: `413`, `408` or `400` ([`body`]).
//!
//! One middleware rather than three: each `from_fn` layer boxes the request's future and the
//! rest of the stack again, which on the load bench's trivial call was a measurable share of
//! the CPU; the order above is the one the three layers had.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::body::{self, BodyLimits};
use super::malformed;
use super::origin::{self, OriginPolicy};
use crate::server::Manager;

/// What the front door checks requests against.
#[derive(Debug)]
pub(crate) struct Gate {
    /// Whose settings hold the public URL, whose host and origin are accepted.
    pub(crate) manager: Arc<Manager>,
    pub(crate) body: BodyLimits,
}

/// The middleware around every route.
pub(crate) async fn admit(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
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
