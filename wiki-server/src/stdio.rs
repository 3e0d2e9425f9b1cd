//! The stdio transport: one wiki as one user, for desktop clients that spawn the server.
//!
//! The process is the session: the client chose the wiki and the user on the command line, so
//! the handler runs with that fixed [`Caller`] (there are no request headers to read). stdout
//! carries only MCP messages; logs go to stderr.

use std::io;
use std::sync::Arc;

use rmcp::ServiceExt;
use tokio_util::sync::CancellationToken;

use crate::server::{Caller, Manager, McpHandler};

/// Serves `caller` over stdin/stdout until the client closes stdin or `shutdown` is cancelled.
pub async fn serve_stdio(
    manager: Arc<Manager>,
    caller: Caller,
    shutdown: CancellationToken,
) -> io::Result<()> {
    let handler = McpHandler::with_caller(manager, caller);
    let running = handler
        .serve_with_ct(rmcp::transport::stdio(), shutdown)
        .await
        .map_err(io::Error::other)?;
    running.waiting().await.map_err(io::Error::other)?;
    Ok(())
}
