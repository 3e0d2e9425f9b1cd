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
use axum::response::Response;

use super::body::{self, BodyLimits};
use super::malformed;
use super::origin::{self, OriginPolicy};

/// What the front door checks requests against.
#[derive(Debug)]
pub(crate) struct Gate {
    pub(crate) origins: OriginPolicy,
    pub(crate) body: BodyLimits,
}

/// The middleware around every route.
pub(crate) async fn admit(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
    if let Some(refusal) = malformed::refusal(&request) {
        return refusal;
    }
    if let Some(refusal) = origin::refusal(&gate.origins, &request) {
        return refusal;
    }
    match body::read_whole(&gate.body, request).await {
        Ok(request) => next.run(request).await,
        Err(refusal) => refusal,
    }
}
