//! WARN lines about refused requests (invalid tokens, 429s), at most [`PER_SECOND`] a second.
//!
//! An operator wants to see a client guessing tokens or hammering the server, but a client
//! that sends thousands of requests a second must not turn that into thousands of log lines a
//! second: past the budget, lines are counted, and the next line written says how many were
//! left out.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Lines written per second at most.
pub(crate) const PER_SECOND: u64 = 20;

/// A per-second budget of WARN lines.
#[derive(Debug)]
pub(crate) struct Warnings {
    start: Instant,
    /// The second (since `start`) the budget is counted in, and the lines written in it.
    second: AtomicU64,
    written: AtomicU64,
    /// Lines left out since the last one written.
    left_out: AtomicU64,
}

impl Default for Warnings {
    fn default() -> Self {
        Warnings {
            start: Instant::now(),
            second: AtomicU64::new(0),
            written: AtomicU64::new(0),
            left_out: AtomicU64::new(0),
        }
    }
}

impl Warnings {
    /// Runs `log` if this second's budget allows, else counts it as left out.
    pub(crate) fn warn(&self, log: impl FnOnce()) {
        let now = self.start.elapsed().as_secs();
        if self.second.swap(now, Ordering::Relaxed) != now {
            self.written.store(0, Ordering::Relaxed);
        }
        if self.written.fetch_add(1, Ordering::Relaxed) >= PER_SECOND {
            self.left_out.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let left_out = self.left_out.swap(0, Ordering::Relaxed);
        if left_out > 0 {
            tracing::warn!(
                left_out,
                "refused requests not logged (more than {PER_SECOND} a second)"
            );
        }
        log();
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    #[test]
    fn past_the_budget_lines_are_left_out() {
        let warnings = Warnings::default();
        let written = Cell::new(0);
        for _ in 0..PER_SECOND * 3 {
            warnings.warn(|| written.set(written.get() + 1));
        }
        // All in the same second (a slow machine may straddle two: at most twice the budget).
        assert!(
            (PER_SECOND..=2 * PER_SECOND).contains(&written.get()),
            "{}",
            written.get()
        );
        assert!(warnings.left_out.load(Ordering::Relaxed) > 0);
    }
}
