//! A streamed reply that cancels its call when hyper drops it before its end.
//!
//! Once a reply streams, the handler's future has returned: hyper dropping it can no longer
//! say that the client went away. What hyper drops then is the body (it notices the closed
//! socket while the body waits for its next frame), so the body carries the call's guard. The
//! task writing the stream would notice too, but only at its next write, which a tool busy in
//! the store after its last progress report may not make for a minute. (rmcp's stateless
//! streams do the same: `CancelOnDisconnect` in its `tower.rs`.)

use std::pin::Pin;
use std::task::{Context, Poll};

use hyper::body::{Body, Frame};
use tokio_util::sync::DropGuard;

/// `inner`, with a guard that fires unless the body was read to its end.
pub(crate) struct CancelOnDrop<B> {
    inner: B,
    guard: Option<DropGuard>,
}

impl<B> CancelOnDrop<B> {
    /// Takes over `guard`: dropping the body before `inner` ended fires it.
    pub(crate) fn new(inner: B, guard: DropGuard) -> Self {
        CancelOnDrop {
            inner,
            guard: Some(guard),
        }
    }
}

impl<B: Body + Unpin> Body for CancelOnDrop<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if let Poll::Ready(None) = polled
            && let Some(guard) = self.guard.take()
        {
            // Read to its end: the call finished and its reply went out whole.
            guard.disarm();
        }
        polled
    }

    // No `is_end_stream`: hyper then polls to the end, which disarms the guard.
}
