//! rmcp's streamable HTTP service behind an `Arc`, so the router's per-request clones are free.
//!
//! axum clones a route's service for every request it routes, and each `from_fn` layer around
//! it clones it again; rmcp's `StreamableHttpService` clones its whole configuration (a
//! cancellation token, whose clone and drop each take the token tree's lock, the allowed
//! hosts and origins) and then clones itself once more in `call`. For the direct `tools/call`
//! answer (`direct.rs`), which never reaches rmcp, those clones and drops were about 6% of a
//! call's CPU in the load bench's profile. Here a request clones one `Arc` and borrows the
//! service ([`StreamableHttpService::handle`] takes `&self`).

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use http::Request;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;

use crate::server::McpHandler;

type Service = StreamableHttpService<McpHandler, NeverSessionManager>;
type Reply = <Service as tower::Service<Request<Body>>>::Response;

/// The MCP endpoint's rmcp service, shared by every request.
#[derive(Clone)]
pub(crate) struct RmcpEndpoint(Arc<Service>);

impl RmcpEndpoint {
    pub(crate) fn new(service: Service) -> Self {
        RmcpEndpoint(Arc::new(service))
    }
}

impl tower::Service<Request<Body>> for RmcpEndpoint {
    type Response = Reply;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Reply, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let service = Arc::clone(&self.0);
        Box::pin(async move { Ok(service.handle(request).await) })
    }
}
