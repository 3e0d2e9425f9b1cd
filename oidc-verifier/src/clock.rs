//! The verifier's sense of time, injectable so that expiry, `nbf` and refetch intervals are
//! tested by moving a clock instead of sleeping.
//!
//! One clock serves both token times (Unix seconds) and the refetch rate limit, so a test that
//! advances it by a minute sees both move together.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use parking_lot::Mutex;

/// Where the verifier reads the current time.
pub trait Clock: Send + Sync + fmt::Debug {
    /// The current time.
    fn now(&self) -> SystemTime;
}

/// The system's wall clock: what production uses.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// A clock that moves only when told: for tests of expiry and refetch intervals. Clones share
/// the same time.
#[derive(Debug, Clone)]
pub struct ManualClock(Arc<Mutex<SystemTime>>);

impl ManualClock {
    /// A clock standing at `start`.
    pub fn new(start: SystemTime) -> Self {
        ManualClock(Arc::new(Mutex::new(start)))
    }

    /// A clock standing at the system's current time, truncated to the second (token times are
    /// whole seconds, so comparisons in tests stay exact).
    pub fn starting_now() -> Self {
        ManualClock::new(UNIX_EPOCH + Duration::from_secs(unix_seconds(SystemTime::now())))
    }

    /// Moves the clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        let mut now = self.0.lock();
        *now += by;
    }

    /// Sets the clock to `to` (backwards too).
    pub fn set(&self, to: SystemTime) {
        *self.0.lock() = to;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> SystemTime {
        *self.0.lock()
    }
}

/// `time` as whole seconds since the Unix epoch (0 before it).
pub(crate) fn unix_seconds(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

/// How long ago `earlier` was, as of `now`. When the clock was set back past `earlier`, the
/// answer is "forever", so a clock set back never holds a refetch off until it catches up.
pub(crate) fn elapsed(earlier: SystemTime, now: SystemTime) -> Duration {
    now.duration_since(earlier).unwrap_or(Duration::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_told_and_clones_share_it() {
        let clock = ManualClock::new(UNIX_EPOCH + Duration::from_secs(1_000));
        let shared = clock.clone();
        clock.advance(Duration::from_secs(61));
        assert_eq!(unix_seconds(shared.now()), 1_061);
        shared.set(UNIX_EPOCH);
        assert_eq!(unix_seconds(clock.now()), 0);
        assert_eq!(
            elapsed(UNIX_EPOCH + Duration::from_secs(5), UNIX_EPOCH),
            Duration::MAX
        );
    }
}
