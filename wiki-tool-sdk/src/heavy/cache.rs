//! Keeping what heavy work made: [`WeightedLru`], a least-recently-used map bounded in bytes,
//! and [`HeavyCache`] on it, which also runs each key's job once however many calls ask for it
//! at the same time (the others wait for its result without taking a slot).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use hashlink::LruCache;
use mcp_runtime::prelude::CancellationToken;
use tokio::sync::watch;

use super::{NotRun, Share, run_heavy};

/// A least-recently-used map weighed in bytes: least recently used entries go first once the
/// weights of the entries kept pass the capacity. An entry heavier than the whole capacity is
/// not kept.
pub struct WeightedLru<K, V> {
    inner: Mutex<Kept<K, V>>,
    capacity: usize,
    weigh: fn(&K, &V) -> usize,
}

struct Kept<K, V> {
    entries: LruCache<K, Arc<V>>,
    bytes: usize,
}

impl<K: Hash + Eq, V> WeightedLru<K, V> {
    /// An empty map holding at most `capacity` bytes, an entry weighing `weigh(key, value)`.
    pub fn new(capacity: usize, weigh: fn(&K, &V) -> usize) -> Self {
        Self {
            inner: Mutex::new(Kept {
                entries: LruCache::new_unbounded(),
                bytes: 0,
            }),
            capacity,
            weigh,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Kept<K, V>> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The entry for `key`, now the most recently used.
    pub fn get(&self, key: &K) -> Option<Arc<V>> {
        self.lock().entries.get(key).map(Arc::clone)
    }

    /// Keeps `value` for `key` (in place of what was kept), dropping the least recently used
    /// entries past the capacity.
    pub fn insert(&self, key: K, value: Arc<V>) {
        let weight = (self.weigh)(&key, &value);
        if weight > self.capacity {
            return;
        }
        let mut kept = self.lock();
        if let Some(old) = kept.entries.remove(&key) {
            kept.bytes -= (self.weigh)(&key, &old);
        }
        while kept.bytes + weight > self.capacity {
            match kept.entries.remove_lru() {
                Some((old_key, old)) => kept.bytes -= (self.weigh)(&old_key, &old),
                None => break,
            }
        }
        kept.bytes += weight;
        kept.entries.insert(key, value);
    }

    /// The bytes the entries kept weigh, together.
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }
}

/// Heavy work kept by key: [`HeavyCache::get_or_run`] answers from the [`WeightedLru`], or runs
/// the key's job in a heavy slot once for every call that asks meanwhile.
pub struct HeavyCache<K, V> {
    kept: WeightedLru<K, V>,
    /// The jobs running (or waiting for a slot), by key: their result arrives on the channel;
    /// a channel closed without a result is a job that did not run.
    flights: Mutex<HashMap<K, watch::Receiver<Option<Arc<V>>>>>,
}

/// Whether a call runs its key's job or waits for another call's.
enum Flight<V> {
    Lead(watch::Sender<Option<Arc<V>>>),
    Follow(watch::Receiver<Option<Arc<V>>>),
}

impl<K, V> HeavyCache<K, V>
where
    K: Hash + Eq + Clone + Send + Sync + 'static,
    V: Send + Sync + 'static,
{
    /// An empty cache of at most `capacity` bytes, an entry weighing `weigh(key, value)`.
    pub fn new(capacity: usize, weigh: fn(&K, &V) -> usize) -> Self {
        Self {
            kept: WeightedLru::new(capacity, weigh),
            flights: Mutex::new(HashMap::new()),
        }
    }

    fn flights(&self) -> MutexGuard<'_, HashMap<K, watch::Receiver<Option<Arc<V>>>>> {
        self.flights.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The value kept for `key`, or the result of the job another call is running for it, or
    /// `job`'s, run for `share` in a heavy slot as [`run_heavy`] runs it. The job keeps its
    /// result itself, on its blocking thread, so a call that timed out while it ran still leaves
    /// the result for the next one.
    pub async fn get_or_run<F>(
        &'static self,
        key: K,
        share: &Share,
        cancellation: &CancellationToken,
        job: F,
    ) -> Result<Arc<V>, NotRun>
    where
        F: FnOnce() -> V + Send + 'static,
    {
        let mut job = Some(job);
        loop {
            if let Some(value) = self.kept.get(&key) {
                return Ok(value);
            }
            let flight = {
                let mut flights = self.flights();
                match flights.get(&key) {
                    Some(running) if running.has_changed().is_ok() => {
                        Flight::Follow(running.clone())
                    }
                    _ => {
                        let (sender, receiver) = watch::channel(None);
                        flights.insert(key.clone(), receiver);
                        Flight::Lead(sender)
                    }
                }
            };
            match flight {
                Flight::Follow(mut running) => {
                    let waited = tokio::select! {
                        biased;
                        () = cancellation.cancelled() => return Err(NotRun::Cancelled),
                        waited = running.wait_for(Option::is_some) => {
                            waited.ok().and_then(|value| value.clone())
                        }
                    };
                    match waited {
                        Some(value) => return Ok(value),
                        // That job did not run (its call left first): run it here.
                        None => continue,
                    }
                }
                Flight::Lead(sender) => {
                    let Some(job) = job.take() else {
                        return Err(NotRun::Cancelled);
                    };
                    let landed = key.clone();
                    let ran = run_heavy(share, cancellation, move || {
                        let value = Arc::new(job());
                        self.kept.insert(landed.clone(), Arc::clone(&value));
                        self.flights().remove(&landed);
                        let _ = sender.send(Some(Arc::clone(&value)));
                        value
                    })
                    .await;
                    if ran.is_err() {
                        let mut flights = self.flights();
                        if flights
                            .get(&key)
                            .is_some_and(|running| running.has_changed().is_err())
                        {
                            flights.remove(&key);
                        }
                    }
                    return ran;
                }
            }
        }
    }

    /// The bytes the values kept weigh, together.
    pub fn bytes(&self) -> usize {
        self.kept.bytes()
    }
}
