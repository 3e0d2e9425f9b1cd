//! Readiness: whether this replica can serve calls now, which is whether its store answers.
//!
//! `GET /readyz` asks the store one cheap question ([`Manager::check_store`]) within
//! [`PROBE_TIMEOUT`] and answers 200 `ready`, or 503 [`Refusal::StoreUnavailable`] while the
//! database cannot be reached.
//! It comes back to 200 by itself when the database does: nothing is latched. A load balancer
//! takes a replica out of rotation on it; `/healthz` stays liveness (the process answers), so a
//! supervisor does not restart replicas that only wait for their database.
//!
//! Probes are shared: the answer is reused for [`REUSE_FOR`], and concurrent probes wait for
//! the one already asking, so a crowd of load balancers (or anyone: the route needs no token)
//! puts at most one store question a second on the database.

use std::time::{Duration, Instant};

use tokio::sync::Mutex;

use super::refusal::Refusal;
use crate::server::Manager;

/// How long a probe waits for the store before calling it unreachable.
pub(crate) const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// How long one probe's answer serves the probes after it.
pub(crate) const REUSE_FOR: Duration = Duration::from_secs(1);

/// The latest probe and when it was answered.
#[derive(Debug, Default)]
pub(crate) struct Readiness {
    last: Mutex<Option<(Instant, bool)>>,
}

impl Readiness {
    /// Whether the store answers, as of at most [`REUSE_FOR`] ago.
    pub(crate) async fn ready(&self, manager: &Manager) -> bool {
        let mut last = self.last.lock().await;
        if let Some((at, ready)) = *last
            && at.elapsed() < REUSE_FOR
        {
            return ready;
        }
        let was_ready = last.is_none_or(|(_, ready)| ready);
        let failure = match tokio::time::timeout(PROBE_TIMEOUT, manager.check_store()).await {
            Ok(Ok(())) => None,
            Ok(Err(error)) => Some(match std::error::Error::source(&error) {
                Some(source) => format!("{error}: {source}"),
                None => error.to_string(),
            }),
            Err(_) => Some(format!("no answer within {PROBE_TIMEOUT:?}")),
        };
        // Once per change, not once per probe.
        match (&failure, was_ready) {
            (Some(error), true) => {
                tracing::warn!(%error, "not ready: the store does not answer (readiness 503)");
            }
            (None, false) => tracing::info!("ready again: the store answers"),
            _ => {}
        }
        let ready = failure.is_none();
        *last = Some((Instant::now(), ready));
        ready
    }

    /// The refusal to answer a readiness probe with, or `None` when ready.
    pub(crate) async fn refusal(&self, manager: &Manager) -> Option<Refusal> {
        (!self.ready(manager).await).then_some(Refusal::StoreUnavailable)
    }
}
