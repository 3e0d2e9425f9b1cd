//! What the clients of one server measured: calls, time, every latency (shared by the load
//! benches).

use std::time::Duration;

/// What the clients of one server measured, over one or more runs.
#[derive(Default)]
pub(crate) struct Measured {
    calls: usize,
    elapsed: Duration,
    /// Every call's latency, sorted.
    latencies: Vec<Duration>,
}

impl Measured {
    /// One run: every call's latency, and how long the run took.
    pub(crate) fn new(mut latencies: Vec<Duration>, elapsed: Duration) -> Self {
        latencies.sort_unstable();
        Measured {
            calls: latencies.len(),
            elapsed,
            latencies,
        }
    }

    pub(crate) fn per_second(&self) -> f64 {
        self.calls as f64 / self.elapsed.as_secs_f64()
    }

    pub(crate) fn add(&mut self, run: Measured) {
        self.calls += run.calls;
        self.elapsed += run.elapsed;
        self.latencies.extend(run.latencies);
        self.latencies.sort_unstable();
    }

    pub(crate) fn quantile(&self, q: f64) -> Duration {
        let last = self.latencies.len().saturating_sub(1);
        self.latencies
            .get(((self.latencies.len() as f64 * q) as usize).min(last))
            .copied()
            .unwrap_or_default()
    }
}
