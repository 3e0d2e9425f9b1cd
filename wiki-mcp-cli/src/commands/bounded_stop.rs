//! Stopping what runs beside the server (the start-up hooks' workers, such as the semantic
//! indexer's thread) within the shutdown deadline.
//!
//! A hook's guard stops its worker when dropped, and a worker finishes its current step first:
//! an embedding step, or a store call that waits for a database that no longer answers. The
//! guards are dropped on a thread of their own and waited for until the deadline; past it the
//! process exits without them (the indexer's lease then expires by itself), as a supervisor's
//! stop timeout expects.

use std::sync::mpsc;
use std::time::{Duration, Instant};

/// When the shutdown signal arrived, if it has.
#[derive(Debug, Default, Clone)]
pub(crate) struct SignalledAt(std::sync::Arc<std::sync::OnceLock<Instant>>);

impl SignalledAt {
    /// Notes the signal's time (the first call counts).
    pub(crate) fn mark(&self) {
        let _ = self.0.set(Instant::now());
    }

    /// What is left of `deadline` counted from the signal (all of it when none arrived: the
    /// server stopped by itself).
    pub(crate) fn left_of(&self, deadline: Duration) -> Duration {
        match self.0.get() {
            Some(at) => deadline.saturating_sub(at.elapsed()),
            None => deadline,
        }
    }
}

/// Drops `running` on a thread and waits for at most `limit`; whether it stopped in time.
pub(crate) fn stop_within<T: Send + 'static>(running: T, what: &str, limit: Duration) -> bool {
    let (stopped, done) = mpsc::channel::<()>();
    let spawned = std::thread::Builder::new()
        .name("wiki-mcp-stop".to_owned())
        .spawn(move || {
            drop(running);
            let _ = stopped.send(());
        });
    if let Err(error) = spawned {
        tracing::warn!(%error, what, "cannot stop on a thread of its own; not waiting for it");
        return false;
    }
    match done.recv_timeout(limit) {
        Ok(()) => true,
        Err(_) => {
            tracing::warn!(
                what,
                waited_ms = u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
                "did not stop within the shutdown deadline; exiting without it"
            );
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks its dropper until the test lets it go.
    struct Stuck(mpsc::Receiver<()>);

    impl Drop for Stuck {
        fn drop(&mut self) {
            let _ = self.0.recv();
        }
    }

    #[test]
    fn a_worker_that_does_not_stop_is_left_at_the_deadline() {
        let (release, hold) = mpsc::channel();
        assert!(!stop_within(
            Stuck(hold),
            "a stuck worker",
            Duration::from_millis(50)
        ));
        let _ = release.send(());
        let (release, hold) = mpsc::channel();
        let _ = release.send(());
        assert!(stop_within(
            Stuck(hold),
            "a worker that stops",
            Duration::from_secs(60)
        ));
    }

    #[test]
    fn the_deadline_counts_from_the_signal() {
        let signalled = SignalledAt::default();
        let deadline = Duration::from_secs(3600);
        assert_eq!(signalled.left_of(deadline), deadline);
        signalled.mark();
        assert!(signalled.left_of(deadline) < deadline);
        assert_eq!(signalled.left_of(Duration::ZERO), Duration::ZERO);
    }
}
