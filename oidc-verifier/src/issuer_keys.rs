//! One issuer's signing keys: fetched lazily, cached, refetched as [`RefreshPolicy`] allows.
//!
//! Reading the cached set is a lock-free-in-practice `RwLock` read; fetching is serialized per
//! issuer by an async mutex, so a burst of tokens naming a new `kid` costs the provider one
//! fetch, and the requests that waited for it use its result. What each situation does:
//!
//! | situation | fetch | while the provider is down |
//! |---|---|---|
//! | known `kid`, set younger than `max_key_age` | none | verifies with the cached keys |
//! | known `kid`, set older | in the background, the request does not wait | keeps the cached keys |
//! | unknown `kid` | inline, at most once per `min_refetch_interval` | refused (`UnknownKey`), cached keys kept |
//! | no set yet | inline, at most once per `retry_without_keys` | refused (`KeysUnavailable`) |

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use parking_lot::{Mutex, RwLock};
use serde_json::Value;
use url::Url;

use crate::clock::{Clock, elapsed};
use crate::config::RefreshPolicy;
use crate::discovery;
use crate::error::{FetchError, Quoted, Refusal};
use crate::fetch::Fetcher;
use crate::issuer::IssuerUrl;
use crate::jwks::{KeySet, Lookup};
use crate::jws::UnverifiedToken;
use crate::token_cache::TokenCache;

/// What every issuer's keys share: the client, the clock, the policy, and the token cache
/// (emptied of an issuer's tokens when its set loses a key).
#[derive(Debug)]
pub(crate) struct Env {
    pub(crate) fetcher: Fetcher,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) policy: RefreshPolicy,
    pub(crate) cache: TokenCache,
}

/// One issuer's key set and its fetch state.
#[derive(Debug)]
pub(crate) struct IssuerKeys {
    issuer: IssuerUrl,
    current: RwLock<Option<Arc<KeySet>>>,
    /// Successful fetches so far: a request that waited on the fetch lock sees whether the
    /// fetch it waited for succeeded.
    generation: AtomicU64,
    fetch: tokio::sync::Mutex<FetchState>,
    status: Mutex<Attempts>,
}

#[derive(Debug, Default)]
struct FetchState {
    /// The discovered `jwks_uri`; forgotten when a fetch fails, so the next one rediscovers.
    jwks_uri: Option<Url>,
    last_attempt: Option<SystemTime>,
}

#[derive(Debug, Default, Clone)]
struct Attempts {
    last_attempt: Option<SystemTime>,
    last_error: Option<FetchError>,
}

/// Why a fetch is attempted; decides whether it waits and whether the interval applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Trigger {
    /// [`crate::Verifier::prefetch`]: always attempted.
    Prefetch,
    /// No set cached yet.
    NoKeys,
    /// A token names a key the set lacks.
    UnknownKey,
    /// The set is older than `max_key_age`: attempted only if no fetch is under way.
    Stale,
}

/// What came of a fetch request.
#[derive(Debug)]
enum Refresh {
    /// This call fetched a new set.
    Fetched,
    /// Another request fetched one while this one waited.
    FetchedByOther,
    /// Too soon after the last attempt; the latest failure, if that attempt failed.
    TooSoon(Option<FetchError>),
    /// The fetch failed.
    Failed(FetchError),
    /// Another fetch is under way (stale refresh only).
    Busy,
}

/// An issuer's keys as seen by an operator (the admin page, the start-up log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuerStatus {
    /// The issuer.
    pub issuer: IssuerUrl,
    /// Usable signing keys cached; 0 while none has been fetched.
    pub keys: usize,
    /// When the cached set was fetched.
    pub fetched_at: Option<SystemTime>,
    /// When a fetch was last attempted.
    pub last_attempt: Option<SystemTime>,
    /// Why the last attempt failed; `None` when it succeeded or none was made.
    pub last_error: Option<FetchError>,
}

impl IssuerKeys {
    pub(crate) fn new(issuer: IssuerUrl) -> Self {
        IssuerKeys {
            issuer,
            current: RwLock::new(None),
            generation: AtomicU64::new(0),
            fetch: tokio::sync::Mutex::new(FetchState::default()),
            status: Mutex::new(Attempts::default()),
        }
    }

    pub(crate) fn issuer(&self) -> &IssuerUrl {
        &self.issuer
    }

    /// Checks `token`'s signature against this issuer's keys, fetching them as the policy
    /// allows. `Ok` carries nothing: the token's own `kid` names the key.
    pub(crate) async fn verify_signature(
        self: &Arc<Self>,
        env: &Arc<Env>,
        token: &UnverifiedToken<'_>,
    ) -> Result<(), Refusal> {
        let set = match self.current() {
            Some(set) => {
                if elapsed(set.fetched_at(), env.clock.now()) >= env.policy.max_key_age {
                    self.refresh_in_background(env);
                }
                set
            }
            None => match self.refresh(env, Trigger::NoKeys).await {
                Refresh::Fetched | Refresh::FetchedByOther => self.current_or_unavailable()?,
                Refresh::Failed(error) | Refresh::TooSoon(Some(error)) => {
                    return Err(self.unavailable(error.to_string()));
                }
                Refresh::TooSoon(None) | Refresh::Busy => {
                    return Err(self.unavailable(format!(
                        "the last attempt was less than {} s ago",
                        env.policy.retry_without_keys.as_secs()
                    )));
                }
            },
        };
        if let Some(outcome) = self.check(&set, token) {
            return outcome;
        }
        // The provider may have rotated its keys: look again, at most once per interval.
        let detail = match self.refresh(env, Trigger::UnknownKey).await {
            Refresh::Fetched | Refresh::FetchedByOther => {
                let set = self.current_or_unavailable()?;
                if let Some(outcome) = self.check(&set, token) {
                    return outcome;
                }
                "not in the set fetched again just now".to_owned()
            }
            Refresh::TooSoon(_) | Refresh::Busy => format!(
                "the set was fetched less than {} s ago, so it was not fetched again",
                env.policy.min_refetch_interval.as_secs()
            ),
            Refresh::Failed(error) => format!("fetching the set again failed: {error}"),
        };
        Err(Refusal::UnknownKey {
            issuer: self.issuer.to_string(),
            kid: Quoted::from(token.kid.as_deref()),
            detail,
        })
    }

    /// Fetches the set now, whatever the interval: start-up's attempt.
    pub(crate) async fn prefetch(self: &Arc<Self>, env: &Arc<Env>) -> IssuerStatus {
        self.refresh(env, Trigger::Prefetch).await;
        self.status()
    }

    pub(crate) fn status(&self) -> IssuerStatus {
        let current = self.current();
        let attempts = self.status.lock().clone();
        IssuerStatus {
            issuer: self.issuer.clone(),
            keys: current.as_ref().map_or(0, |set| set.len()),
            fetched_at: current.map(|set| set.fetched_at()),
            last_attempt: attempts.last_attempt,
            last_error: attempts.last_error,
        }
    }

    fn current(&self) -> Option<Arc<KeySet>> {
        self.current.read().clone()
    }

    fn current_or_unavailable(&self) -> Result<Arc<KeySet>, Refusal> {
        self.current()
            .ok_or_else(|| self.unavailable("no key set has been fetched".to_owned()))
    }

    fn unavailable(&self, reason: String) -> Refusal {
        Refusal::KeysUnavailable {
            issuer: self.issuer.to_string(),
            reason,
        }
    }

    /// The signature check against `set`; `None` when the set has no key by the token's `kid`.
    fn check(&self, set: &KeySet, token: &UnverifiedToken<'_>) -> Option<Result<(), Refusal>> {
        let kid = || Quoted::from(token.kid.as_deref());
        match set.lookup(token.kid.as_deref(), token.alg) {
            Lookup::Found(keys) => Some(
                if keys
                    .iter()
                    .any(|key| key.verifies(token.alg, token.signing_input, &token.signature))
                {
                    Ok(())
                } else {
                    Err(Refusal::BadSignature {
                        issuer: self.issuer.to_string(),
                        kid: kid(),
                    })
                },
            ),
            Lookup::Unfit(reason) => Some(Err(Refusal::KeyMismatch {
                issuer: self.issuer.to_string(),
                kid: kid(),
                reason,
            })),
            Lookup::Missing => None,
        }
    }

    /// Refreshes an aged set without making the current request wait (it verifies with the
    /// cached keys meanwhile). Needs a tokio runtime, as the rest of the verifier does.
    fn refresh_in_background(self: &Arc<Self>, env: &Arc<Env>) {
        // Checked here too, so a set that stays old while the provider is down costs each
        // request a mutex read, not a task.
        let last_attempt = self.status.lock().last_attempt;
        if last_attempt
            .is_some_and(|last| elapsed(last, env.clock.now()) < env.policy.min_refetch_interval)
        {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let keys = Arc::clone(self);
        let env = Arc::clone(env);
        runtime.spawn(async move {
            keys.refresh(&env, Trigger::Stale).await;
        });
    }

    async fn refresh(&self, env: &Env, trigger: Trigger) -> Refresh {
        let seen = self.generation.load(Ordering::Acquire);
        let mut state = if trigger == Trigger::Stale {
            match self.fetch.try_lock() {
                Ok(state) => state,
                Err(_) => return Refresh::Busy,
            }
        } else {
            self.fetch.lock().await
        };
        if self.generation.load(Ordering::Acquire) != seen {
            return Refresh::FetchedByOther;
        }
        let now = env.clock.now();
        let cached = self.current();
        let interval = interval(&env.policy, cached.is_some());
        if trigger != Trigger::Prefetch
            && let Some(last) = state.last_attempt
            && elapsed(last, now) < interval
        {
            return Refresh::TooSoon(self.status.lock().last_error.clone());
        }
        state.last_attempt = Some(now);
        self.status.lock().last_attempt = Some(now);
        match self.fetch_set(env, &mut state, now).await {
            Ok(set) => {
                let lost_keys = cached.as_ref().is_some_and(|old| old.loses_keys_in(&set));
                tracing::info!(
                    issuer = %self.issuer,
                    keys = set.len(),
                    "fetched the OIDC issuer's signing keys"
                );
                *self.current.write() = Some(Arc::new(set));
                self.generation.fetch_add(1, Ordering::AcqRel);
                self.status.lock().last_error = None;
                if lost_keys {
                    // Tokens verified by a withdrawn key must not outlive it in the cache.
                    env.cache.forget_issuer(&self.issuer);
                }
                Refresh::Fetched
            }
            Err(error) => {
                state.jwks_uri = None;
                match &cached {
                    Some(set) => tracing::warn!(
                        issuer = %self.issuer,
                        error = %error,
                        "cannot refresh the OIDC issuer's signing keys; still verifying with \
                         the {} cached",
                        set.len()
                    ),
                    None => tracing::warn!(
                        issuer = %self.issuer,
                        error = %error,
                        "cannot fetch the OIDC issuer's signing keys; its tokens are refused \
                         until a fetch succeeds (retried on the next token, at most every {} s)",
                        env.policy.retry_without_keys.as_secs()
                    ),
                }
                self.status.lock().last_error = Some(error.clone());
                Refresh::Failed(error)
            }
        }
    }

    /// Discovery (when the `jwks_uri` is not known yet) and the key set.
    async fn fetch_set(
        &self,
        env: &Env,
        state: &mut FetchState,
        now: SystemTime,
    ) -> Result<KeySet, FetchError> {
        let uri = match &state.jwks_uri {
            Some(uri) => uri.clone(),
            None => {
                let uri = discovery::jwks_uri(&env.fetcher, &self.issuer).await?;
                state.jwks_uri = Some(uri.clone());
                uri
            }
        };
        let body: Value = env.fetcher.get_json(&uri, "JWK set").await?;
        KeySet::parse(body, uri.as_str(), now)
    }
}

/// The shortest time between two attempts: shorter while nothing is cached, because then every
/// token of the issuer is refused until a fetch succeeds.
fn interval(policy: &RefreshPolicy, cached: bool) -> Duration {
    if cached {
        policy.min_refetch_interval
    } else {
        policy.retry_without_keys
    }
}
