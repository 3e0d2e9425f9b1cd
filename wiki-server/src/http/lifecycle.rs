//! Shutting down without dropping work: stop accepting, refuse new requests, let the ones in
//! flight finish until a deadline, then cancel what is left.
//!
//! When the server's shutdown token fires (SIGTERM or SIGINT: `shutdown.rs`):
//!
//! 1. The accept loop stops and the listening socket is closed: a new connection is refused at
//!    once, so a load balancer moves on.
//! 2. A request arriving on a connection that is already open gets
//!    [`Refusal::ShuttingDown`] (503, `Retry-After`, `Connection: close`, by the front door),
//!    so its client retries elsewhere rather than waiting on a server that is leaving.
//! 3. Requests in flight (counted by the front door from arrival until their response, or for a
//!    streamed reply, until its body ends) finish. When none is left, every connection is
//!    closed gracefully and the server returns.
//! 4. At the deadline (`serve --shutdown-timeout`, 30 s by default) the connections still busy
//!    are dropped: their calls are cancelled (their store work interrupted) and audited
//!    `cancelled`, exactly as when a client hangs up, and the server returns.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::refusal::Refusal;

/// How long in-flight requests may take to finish after a shutdown starts, by default.
pub const DEFAULT_SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(30);

/// The server's stage in shutting down, and its requests in flight.
#[derive(Debug, Default)]
pub(crate) struct Lifecycle {
    draining: AtomicBool,
    in_flight: AtomicUsize,
    /// Woken when the last request in flight ends while draining.
    quiet: Notify,
    /// Fired when connections are to close gracefully: nothing in flight, or the deadline.
    pub(crate) close: CancellationToken,
    /// Fired at the deadline: busy connections are dropped, their calls cancelled.
    pub(crate) abort: CancellationToken,
}

impl Lifecycle {
    /// Counts a request in flight until the returned guard is dropped, or refuses it when the
    /// server is shutting down.
    pub(crate) fn enter(self: &Arc<Self>) -> Result<InFlight, Refusal> {
        // Counted first, checked second: `drain` sets the flag first and counts second, so a
        // request either sees the flag or is counted by the drain.
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        let guard = InFlight(Arc::clone(self));
        if self.draining.load(Ordering::SeqCst) {
            return Err(Refusal::ShuttingDown);
        }
        Ok(guard)
    }

    /// Steps 2 to 4 above: refuses new requests, waits for those in flight up to `timeout`,
    /// then closes the connections (gracefully, or by dropping the busy ones).
    pub(crate) async fn drain(&self, timeout: Duration) {
        self.draining.store(true, Ordering::SeqCst);
        let waiting = self.in_flight.load(Ordering::SeqCst);
        tracing::info!(
            in_flight = waiting,
            timeout_s = timeout.as_secs_f64(),
            "shutting down: no new requests; waiting for those in flight"
        );
        let finished = tokio::time::timeout(timeout, async {
            loop {
                let quiet = self.quiet.notified();
                if self.in_flight.load(Ordering::SeqCst) == 0 {
                    return;
                }
                quiet.await;
            }
        })
        .await;
        if finished.is_err() {
            tracing::warn!(
                in_flight = self.in_flight.load(Ordering::SeqCst),
                "shutdown deadline passed: cancelling the requests still in flight"
            );
            self.abort.cancel();
        }
        self.close.cancel();
    }
}

/// One request in flight; its end is counted when dropped.
#[derive(Debug)]
pub(crate) struct InFlight(Arc<Lifecycle>);

impl Drop for InFlight {
    fn drop(&mut self) {
        let left = self.0.in_flight.fetch_sub(1, Ordering::SeqCst) - 1;
        if left == 0 && self.0.draining.load(Ordering::SeqCst) {
            self.0.quiet.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_drain_waits_for_the_requests_in_flight_and_refuses_new_ones() {
        let lifecycle = Arc::new(Lifecycle::default());
        let Ok(running) = lifecycle.enter() else {
            panic!("a request before the shutdown is served");
        };
        let draining = tokio::spawn({
            let lifecycle = Arc::clone(&lifecycle);
            async move { lifecycle.drain(Duration::from_secs(60)).await }
        });
        while !lifecycle.draining.load(Ordering::SeqCst) {
            tokio::task::yield_now().await;
        }
        assert!(matches!(lifecycle.enter(), Err(Refusal::ShuttingDown)));
        assert!(
            !lifecycle.close.is_cancelled(),
            "a request is still in flight"
        );
        drop(running);
        if let Err(error) = draining.await {
            panic!("the drain failed: {error}");
        }
        assert!(lifecycle.close.is_cancelled());
        assert!(
            !lifecycle.abort.is_cancelled(),
            "finished before the deadline"
        );
    }

    #[tokio::test]
    async fn past_the_deadline_what_is_in_flight_is_aborted() {
        let lifecycle = Arc::new(Lifecycle::default());
        let _running = lifecycle.enter();
        lifecycle.drain(Duration::from_millis(10)).await;
        assert!(lifecycle.abort.is_cancelled() && lifecycle.close.is_cancelled());
    }
}
