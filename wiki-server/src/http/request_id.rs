//! A request id for every request: the client's `x-request-id` when it sends a usable one
//! ([`RequestId::from_client`]), else one of this process's (a random prefix drawn at start
//! and a counter: unique across replicas in practice, no lock). It goes into the request's
//! extensions, where the call path takes it to the audit line, and back in the response's
//! `x-request-id`.

use std::sync::atomic::{AtomicU64, Ordering};

use http::{HeaderMap, HeaderName};

use crate::server::RequestId;

/// The header a request id travels in, both ways.
pub(crate) const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// This process's ids.
#[derive(Debug)]
pub(crate) struct RequestIds {
    prefix: u32,
    next: AtomicU64,
}

impl Default for RequestIds {
    fn default() -> Self {
        RequestIds {
            prefix: rand::random(),
            next: AtomicU64::new(1),
        }
    }
}

impl RequestIds {
    /// The id of a request with `headers`.
    pub(crate) fn of(&self, headers: &HeaderMap) -> Option<RequestId> {
        headers
            .get(&REQUEST_ID)
            .and_then(RequestId::from_client)
            .or_else(|| {
                let n = self.next.fetch_add(1, Ordering::Relaxed);
                RequestId::made(format!("{:08x}-{n:x}", self.prefix))
            })
    }
}
