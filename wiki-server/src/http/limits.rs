//! The per-caller rate limit: a token bucket per user (per client address for the guest and for
//! failed authentications, so guessing tokens is throttled too).
//!
//! The address is the TCP peer's: behind a reverse proxy every guest shares the proxy's bucket.
//! `X-Forwarded-For` is deliberately not trusted (any client can set it); authenticated callers
//! are keyed by user and are unaffected.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

/// How many requests a caller may make: `burst` at once, refilled at `per_second`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// Sustained requests per second (at least 1).
    pub per_second: u32,
    /// Requests allowed at once after a quiet period (at least 1).
    pub burst: u32,
}

impl Default for RateLimit {
    /// 20 requests per second with bursts of 40: far above an agent's pace, low enough to stop a
    /// runaway loop or a token-guessing script.
    fn default() -> Self {
        RateLimit {
            per_second: 20,
            burst: 40,
        }
    }
}

impl RateLimit {
    /// The signed link pages' default, per client address: 2 a second with bursts of 10. Each
    /// view page may be a render in the process's few heavy slots (a second or more for a large
    /// page), which a person following links never asks for faster, and an address asking ten
    /// times as often would only be told the slots are busy.
    pub fn pages() -> Self {
        RateLimit {
            per_second: 2,
            burst: 10,
        }
    }
}

/// Whose bucket a request draws from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum RateKey {
    /// An authenticated user (all their tokens share one bucket).
    User(String),
    /// A client address: the guest, and requests whose credentials failed.
    Address(IpAddr),
}

/// Beyond this many buckets, the full ones (callers idle long enough to be back at `burst`)
/// are dropped: they carry no information.
const MAX_BUCKETS: usize = 10_000;

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    updated: Instant,
}

/// Token buckets keyed by caller.
#[derive(Debug)]
pub(crate) struct RateLimiter {
    limit: RateLimit,
    buckets: Mutex<HashMap<RateKey, Bucket>>,
}

impl RateLimiter {
    pub(crate) fn new(limit: RateLimit) -> Self {
        RateLimiter {
            limit: RateLimit {
                per_second: limit.per_second.max(1),
                burst: limit.burst.max(1),
            },
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token from `key`'s bucket, or says how long to wait for the next one.
    pub(crate) fn acquire(&self, key: RateKey) -> Result<(), Duration> {
        self.acquire_at(key, Instant::now())
    }

    fn acquire_at(&self, key: RateKey, now: Instant) -> Result<(), Duration> {
        let rate = f64::from(self.limit.per_second);
        let burst = f64::from(self.limit.burst);
        let mut buckets = self.buckets.lock();
        if buckets.len() >= MAX_BUCKETS && !buckets.contains_key(&key) {
            buckets.retain(|_, bucket| refilled(bucket, now, rate, burst) < burst);
        }
        let bucket = buckets.entry(key).or_insert(Bucket {
            tokens: burst,
            updated: now,
        });
        bucket.tokens = refilled(bucket, now, rate, burst);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / rate))
        }
    }
}

fn refilled(bucket: &Bucket, now: Instant, rate: f64, burst: f64) -> f64 {
    let elapsed = now.saturating_duration_since(bucket.updated).as_secs_f64();
    (bucket.tokens + elapsed * rate).min(burst)
}

/// A `Retry-After` value: whole seconds, rounded up, at least 1.
pub(crate) fn retry_after_seconds(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_the_caller_waits_for_the_refill() {
        let limiter = RateLimiter::new(RateLimit {
            per_second: 2,
            burst: 3,
        });
        let start = Instant::now();
        let alice = || RateKey::User("alice".into());
        for _ in 0..3 {
            assert_eq!(limiter.acquire_at(alice(), start), Ok(()));
        }
        assert_eq!(
            limiter.acquire_at(alice(), start),
            Err(Duration::from_millis(500))
        );
        // Another caller has its own bucket.
        assert_eq!(
            limiter.acquire_at(RateKey::User("bob".into()), start),
            Ok(())
        );
        // Half a second later one token is back.
        let later = start + Duration::from_millis(500);
        assert_eq!(limiter.acquire_at(alice(), later), Ok(()));
        assert!(limiter.acquire_at(alice(), later).is_err());
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        assert_eq!(retry_after_seconds(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_seconds(Duration::ZERO), 1);
        assert_eq!(retry_after_seconds(Duration::from_secs(2)), 2);
        assert_eq!(retry_after_seconds(Duration::from_millis(2001)), 3);
    }
}
