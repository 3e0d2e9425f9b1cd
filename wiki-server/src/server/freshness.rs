//! Coalesced freshness checks: every request must see every change committed before it
//! arrived, but concurrent requests can share one check of the change sequence.
//!
//! Each request takes a ticket on arrival. A check records the highest ticket issued when it
//! starts; when it completes, every request holding a ticket up to that value is covered (its
//! commits-before-arrival were visible to the check's read). A request not yet covered waits its
//! turn and then either finds itself covered by the check that ran meanwhile or runs one, which
//! covers everyone waiting behind it. Under load that is one blocking store read per batch of
//! requests instead of one per request; alone, a request checks for itself as before.
//!
//! The manager only comes here when the store's commit marker moved since the last check
//! (something was committed somewhere); the common case, nothing committed, never queues.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::Mutex;

/// Single-flight, arrival-ordered freshness checks.
#[derive(Debug, Default)]
pub(crate) struct FreshnessGate {
    arrived: AtomicU64,
    covered: AtomicU64,
    turn: Mutex<()>,
}

impl FreshnessGate {
    /// Returns once a `check` that started after this call's arrival has succeeded (this
    /// caller's or a concurrent one's).
    pub(crate) async fn ensure<E, F, Fut>(&self, check: F) -> Result<(), E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<(), E>>,
    {
        let ticket = self.arrived.fetch_add(1, Ordering::AcqRel) + 1;
        let _turn = self.turn.lock().await;
        if self.covered.load(Ordering::Acquire) >= ticket {
            return Ok(());
        }
        let covers = self.arrived.load(Ordering::Acquire);
        check().await?;
        self.covered.fetch_max(covers, Ordering::AcqRel);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn concurrent_requests_share_checks_and_late_arrivals_check_again() {
        let gate = Arc::new(FreshnessGate::default());
        let checks = Arc::new(AtomicUsize::new(0));
        let request = |gate: Arc<FreshnessGate>, checks: Arc<AtomicUsize>| async move {
            gate.ensure(|| async {
                checks.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(20)).await;
                Ok::<(), ()>(())
            })
            .await
        };
        let tasks: Vec<_> = (0..50)
            .map(|_| tokio::spawn(request(Arc::clone(&gate), Arc::clone(&checks))))
            .collect();
        for task in tasks {
            assert_eq!(task.await.ok(), Some(Ok(())));
        }
        // The first request checks alone; the 49 that arrived during it share one more check.
        assert_eq!(checks.load(Ordering::SeqCst), 2);
        // A request arriving after every check is never covered by an older one.
        assert_eq!(
            request(Arc::clone(&gate), Arc::clone(&checks)).await,
            Ok(())
        );
        assert_eq!(checks.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn a_failed_check_covers_nobody() {
        let gate = FreshnessGate::default();
        assert_eq!(
            gate.ensure(|| async { Err("store down") }).await,
            Err("store down")
        );
        let mut ran = false;
        assert_eq!(
            gate.ensure(|| {
                ran = true;
                async { Ok::<(), &str>(()) }
            })
            .await,
            Ok(())
        );
        assert!(ran);
    }
}
