//! The store's sense of time, injectable so that what lapses (an identity adoption, a SQLite
//! lease, a token's scope) and what records when (a user's creation, a save) is tested by
//! moving a clock instead of sleeping.
//!
//! Every instant the store records or decides on is read from its configuration's clock
//! ([`crate::StoreConfig::clock`]), except PostgreSQL's leases, which read the database's clock
//! on purpose: replicas on several hosts need not agree on the time.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use time::OffsetDateTime;

use crate::stored::to_ms;

/// Where a store reads the current time: the system's wall clock (the default), or an
/// [`AdjustableClock`]'s. Clones read the same time.
#[derive(Debug, Clone, Default)]
pub struct Clock(Option<AdjustableClock>);

impl Clock {
    /// The system's wall clock: what production uses.
    pub fn system() -> Self {
        Clock(None)
    }

    /// The current time.
    pub fn now(&self) -> OffsetDateTime {
        let now = OffsetDateTime::now_utc();
        match &self.0 {
            None => now,
            Some(adjustable) => {
                now.saturating_add(adjustable.ahead().try_into().unwrap_or_default())
            }
        }
    }

    /// The current time in stored form (milliseconds since the Unix epoch).
    pub(crate) fn now_ms(&self) -> i64 {
        to_ms(self.now())
    }
}

/// Two clocks are equal when they read the same time: both the system's, or the same
/// adjustable clock.
impl PartialEq for Clock {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(&a.0, &b.0),
            _ => false,
        }
    }
}

impl Eq for Clock {}

/// A clock that runs with the system's and is moved forward only when told: for tests of what
/// lapses. Its clones, and the [`Clock`]s made from it, share how far it was moved.
#[derive(Debug, Clone, Default)]
pub struct AdjustableClock(Arc<AtomicI64>);

impl AdjustableClock {
    /// A clock standing at the system's time.
    pub fn new() -> Self {
        Self::default()
    }

    /// Moves the clock forward by `by` (saturating).
    pub fn advance(&self, by: Duration) {
        let by = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        let _ = self
            .0
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |ahead| {
                Some(ahead.saturating_add(by))
            });
    }

    /// The clock a store reads, for [`crate::StoreConfig::clock`].
    pub fn clock(&self) -> Clock {
        Clock(Some(self.clone()))
    }

    /// How far ahead of the system's time it stands.
    fn ahead(&self) -> Duration {
        Duration::from_millis(u64::try_from(self.0.load(Ordering::Acquire)).unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_adjustable_clock_moves_when_told_and_its_clocks_share_it() {
        let adjustable = AdjustableClock::new();
        let (clock, shared) = (adjustable.clock(), adjustable.clock());
        assert_eq!(clock, shared);
        assert_ne!(clock, Clock::system());
        assert_ne!(clock, AdjustableClock::new().clock());
        let before = Clock::system().now_ms();
        adjustable.advance(Duration::from_secs(3_600));
        let moved = shared.now_ms() - before;
        assert!((3_600_000..3_700_000).contains(&moved), "{moved} ms");
        assert!(Clock::system().now_ms() - before < 100_000);
    }
}
