//! The per-caller rate limit: a token bucket per user (per client address for the guest and for
//! failed authentications, so guessing tokens is throttled too).
//!
//! The address is the TCP peer's: behind a reverse proxy every guest shares the proxy's bucket.
//! `X-Forwarded-For` is deliberately not trusted (any client can set it); authenticated callers
//! are keyed by user and are unaffected.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
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

/// Where the rate limits read the time: the monotonic clock by default; in tests, a clock that
/// stands still until told to move, so a test of a refill advances it instead of sleeping.
#[derive(Debug, Clone, Default)]
pub struct RateClock {
    /// The manual clock's start and how far it was moved; `None` for the monotonic clock.
    manual: Option<Arc<(Instant, Mutex<Duration>)>>,
}

impl RateClock {
    /// A clock that stands still until [`Self::advance`] moves it (clones share it).
    pub fn manual() -> Self {
        RateClock {
            manual: Some(Arc::new((Instant::now(), Mutex::new(Duration::ZERO)))),
        }
    }

    /// Moves a manual clock forward by `by` (the monotonic clock moves by itself: no effect).
    pub fn advance(&self, by: Duration) {
        if let Some(manual) = &self.manual {
            let mut moved = manual.1.lock();
            *moved = moved.saturating_add(by);
        }
    }

    fn now(&self) -> Instant {
        match &self.manual {
            None => Instant::now(),
            Some(manual) => manual.0 + *manual.1.lock(),
        }
    }
}

/// Whose bucket a request draws from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum RateKey {
    /// An authenticated user (all their tokens share one bucket).
    User(String),
    /// A client's network: the guest, and requests whose credentials failed.
    Address(Network),
}

impl RateKey {
    /// The bucket of the client at `address`: its [`Network`]'s.
    pub(crate) fn address(address: IpAddr) -> Self {
        RateKey::Address(Network::of(address))
    }
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
    /// Tokens back per second.
    rate: f64,
    /// Tokens a full bucket holds.
    burst: f64,
    buckets: Mutex<HashMap<RateKey, Bucket>>,
    clock: RateClock,
}

impl RateLimiter {
    pub(crate) fn new(limit: RateLimit) -> Self {
        RateLimiter {
            rate: f64::from(limit.per_second.max(1)),
            burst: f64::from(limit.burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
            clock: RateClock::default(),
        }
    }

    /// The same limiter reading the time from `clock`.
    pub(crate) fn with_clock(self, clock: RateClock) -> Self {
        RateLimiter { clock, ..self }
    }

    /// `burst` at once, then one more every `every`: for what a person does a few times an
    /// hour, slower than [`RateLimit`]'s whole requests per second.
    pub(crate) fn refilling(burst: u32, every: Duration) -> Self {
        RateLimiter {
            rate: 1.0 / every.as_secs_f64().max(f64::MIN_POSITIVE),
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
            clock: RateClock::default(),
        }
    }

    /// Takes one token from `key`'s bucket, or says how long to wait for the next one.
    pub(crate) fn acquire(&self, key: RateKey) -> Result<(), Duration> {
        self.acquire_at(key, self.clock.now())
    }

    fn acquire_at(&self, key: RateKey, now: Instant) -> Result<(), Duration> {
        let (rate, burst) = (self.rate, self.burst);
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

/// The network a client address stands for, which every per-client bound counts by: an IPv6
/// address's /64 (one host usually holds a whole /64, so its addresses cost nothing to vary; a
/// bound kept per address would be a bound per attempt), an IPv4 address (mapped into IPv6 or
/// not) as itself. Only [`Network::of`] makes one, so no bound can key by a bare address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Network(IpAddr);

impl Network {
    pub(crate) fn of(address: IpAddr) -> Self {
        Network(match address {
            IpAddr::V4(v4) => IpAddr::V4(v4),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpAddr::V4(v4),
                None => {
                    let prefix = u128::from(v6) & !u128::from(u64::MAX);
                    IpAddr::V6(std::net::Ipv6Addr::from(prefix))
                }
            },
        })
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
    fn a_refilling_limiter_gives_one_token_back_per_period() {
        let limiter = RateLimiter::refilling(2, Duration::from_secs(30));
        let start = Instant::now();
        let here = || RateKey::address(IpAddr::from([192, 0, 2, 1]));
        assert_eq!(limiter.acquire_at(here(), start), Ok(()));
        assert_eq!(limiter.acquire_at(here(), start), Ok(()));
        assert!(limiter.acquire_at(here(), start).is_err());
        let later = start + Duration::from_secs(30);
        assert_eq!(limiter.acquire_at(here(), later), Ok(()));
        assert!(limiter.acquire_at(here(), later).is_err());
    }

    #[test]
    fn an_ipv6_address_stands_for_its_64_and_a_mapped_ipv4_for_itself() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(Network::of(a), Network::of(b));
        assert_ne!(Network::of(a), Network::of(other));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(
            Network::of(mapped),
            Network::of(IpAddr::from([192, 0, 2, 7]))
        );
        assert_eq!(
            RateKey::address(a),
            RateKey::address(b),
            "an IPv6 client varying its address draws from one bucket"
        );
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        assert_eq!(retry_after_seconds(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_seconds(Duration::ZERO), 1);
        assert_eq!(retry_after_seconds(Duration::from_secs(2)), 2);
        assert_eq!(retry_after_seconds(Duration::from_millis(2001)), 3);
    }
}
