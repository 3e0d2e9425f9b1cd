//! The stdio transport: one wiki as one user, for desktop clients that spawn the server.
//!
//! The process is the session: the client chose the wiki and the user on the command line, so
//! the handler runs with that fixed [`Caller`] (there are no request headers to read). stdout
//! carries only MCP messages; logs go to stderr.
//!
//! Serving stops when the client closes stdin or the shutdown token is cancelled (a signal);
//! calls still running then get until the shutdown timeout to answer, and are cancelled past
//! it, so a client or a service manager waiting for the process never waits longer.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use rmcp::ServiceExt;
use tokio::io::{AsyncRead, ReadBuf};
use tokio_util::sync::CancellationToken;

use crate::server::{Caller, Manager, McpHandler};

/// Serves `caller` over stdin/stdout until the client closes stdin or `shutdown` is cancelled;
/// calls in flight then have `shutdown_timeout` to finish before they are cancelled and this
/// returns. The end of stdin cancels `shutdown` too, so whatever waits on it (a deadline for
/// the rest of the process's stop) learns that serving is stopping.
///
/// A blocking read of stdin may still be running when this returns: run it on a runtime that
/// is shut down with a timeout (`Runtime::shutdown_timeout`), not dropped, or the process
/// waits for the client to close stdin.
pub async fn serve_stdio(
    manager: Arc<Manager>,
    caller: Caller,
    shutdown: CancellationToken,
    shutdown_timeout: Duration,
) -> io::Result<()> {
    let handler = McpHandler::with_caller(manager, caller);
    let (stdin, stdout) = rmcp::transport::stdio();
    let stdin = NoticeEnd {
        inner: stdin,
        ended: shutdown.clone(),
    };
    // The deadline is armed by the signal or the end of stdin, from the handshake on: a
    // client that never finishes initializing does not hold the stop either.
    let deadline = async {
        shutdown.cancelled().await;
        tokio::time::sleep(shutdown_timeout).await;
    };
    tokio::pin!(deadline);
    let running = tokio::select! {
        started = handler.serve_with_ct((stdin, stdout), shutdown.clone()) => {
            started.map_err(io::Error::other)?
        }
        () = &mut deadline => return Ok(()),
    };
    tokio::select! {
        quit = running.waiting() => {
            quit.map_err(io::Error::other)?;
        }
        () = deadline => {
            // Dropping the service cancels the calls it still runs.
            tracing::warn!(
                waited_ms = u64::try_from(shutdown_timeout.as_millis()).unwrap_or(u64::MAX),
                "calls still running at the shutdown deadline are cancelled"
            );
        }
    }
    Ok(())
}

/// The client's input, cancelling `ended` when it ends (or fails): rmcp says why it stopped
/// only once it has stopped, and the stop's deadline counts from the end of the input.
struct NoticeEnd<R> {
    inner: R,
    ended: CancellationToken,
}

impl<R: AsyncRead + Unpin> AsyncRead for NoticeEnd<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        let at_end = match &polled {
            Poll::Ready(Ok(())) => buf.filled().len() == before && buf.remaining() > 0,
            Poll::Ready(Err(_)) => true,
            Poll::Pending => false,
        };
        if at_end {
            self.ended.cancel();
        }
        polled
    }
}
