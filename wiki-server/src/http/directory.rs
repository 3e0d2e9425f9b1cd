//! What the HTTP gate asks on every request: is `{wiki}` served, and whom does the bearer
//! token authenticate.
//!
//! The wiki comes from the server [`Manager`], which polls the store's change sequence on every
//! request and rebuilds a wiki's server when its configuration changed, so the gate and the
//! tools always agree on the configuration. Token resolutions are cached beside it and dropped
//! whenever that change sequence moves (any write by any process advances it, a token revoked
//! by an admin command in another process included): a request costs one read of the change
//! sequence, and a revocation applies from the next request on.
//!
//! Token uses are noted here too, for `wiki-mcp token list`'s "last used": in memory on each
//! request (the token's public prefix and the time), written to the store by
//! [`Directory::flush_token_uses`] about once a minute and on shutdown, from the blocking pool.
//! A request never waits on that write, and the write does not advance the change sequence, so
//! it drops no cache; its commit moves SQLite's `data_version`, which costs every server one
//! change-sequence read per flush, not per request.
//!
//! With an [`OidcIdentity`], a JWT-shaped bearer token (three base64url parts; an API token is
//! `wmcp_…` and never is) goes to the OIDC verifier instead of the token store, and one that
//! does not verify is refused like an invalid API token; API tokens keep working beside it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use tokio_util::sync::CancellationToken;
use wiki_store::model::token::TokenScope;
use wiki_store::model::wiki::WikiId;

use crate::Error;
use crate::oidc::{OidcAccess, OidcIdentity};
use crate::server::{Manager, WikiServer};

/// The answers for one request.
#[derive(Debug, Clone)]
pub(crate) struct Resolution {
    /// The wiki's server; `None` when the wiki does not exist or its endpoint is disabled (404).
    pub(crate) server: Option<Arc<WikiServer>>,
    /// Whom the presented token authenticates; `None` when no token was presented or it is
    /// invalid (only looked up for a served wiki).
    pub(crate) bearer: Option<Bearer>,
}

/// Whom a bearer token authenticates, and what its scope lets it do.
#[derive(Debug, Clone)]
pub(crate) struct Bearer {
    /// The user.
    pub(crate) user: String,
    /// An API token's scope, when it has one (`None`: a full API token, or an OIDC access
    /// token). An expired token resolves with its scope, so the gate can say it expired:
    /// [`TokenScope::expired_at`] is checked on every request, since resolutions are cached.
    pub(crate) scope: Option<Arc<TokenScope>>,
    /// An OIDC access token whose scope grants reading only ([`OidcAccess::ReadOnly`]).
    pub(crate) oidc_reads_only: bool,
    /// Whether this sign-in wrote an identity link (an OIDC user created or adopted): the
    /// server's view of users and rights is older than it.
    pub(crate) linked_now: bool,
}

impl Bearer {
    /// Whether the token may be used for everything its user may (a full token, or one whose
    /// only limit is an expiry not yet reached): what signing in to the admin page needs.
    pub(crate) fn is_full_at(&self, now: OffsetDateTime) -> bool {
        !self.oidc_reads_only
            && self.scope.as_deref().is_none_or(|scope| {
                !scope.expired_at(now)
                    && !scope.read_only
                    && scope.tools.is_none()
                    && scope.wikis.is_none()
            })
    }
}

/// Cached resolutions beyond which the token cache starts over (bounds memory when someone
/// sprays random tokens).
const MAX_CACHED_TOKENS: usize = 10_000;

/// How often the serving loop writes the token uses noted since its last flush: "last used" is
/// kept to the minute, at one small write per used token per minute.
pub(crate) const TOKEN_USE_FLUSH_INTERVAL: Duration = Duration::from_secs(60);

/// The manager's servers, token resolutions cached until the store changes, and token uses not
/// yet written.
pub struct Directory {
    manager: Arc<Manager>,
    /// OIDC access tokens, when an issuer is configured.
    oidc: Option<Arc<OidcIdentity>>,
    tokens: Mutex<TokenCache>,
    /// Token prefix to its latest use since the last flush. Only valid tokens get here, so it
    /// holds at most one entry per live token.
    uses: Mutex<HashMap<String, OffsetDateTime>>,
}

#[derive(Default)]
struct TokenCache {
    seq: u64,
    /// Keyed by the token's SHA-256, so no clear token is kept in memory.
    owners: HashMap<[u8; 32], Option<TokenOwner>>,
}

/// What a valid token resolves to: its user and scope, and its public prefix to note its uses
/// under.
#[derive(Clone)]
struct TokenOwner {
    user: String,
    /// Shared, so handing it out of the cache on every request allocates nothing.
    prefix: Arc<str>,
    /// `None` for a full token.
    scope: Option<Arc<TokenScope>>,
}

impl std::fmt::Debug for Directory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Directory").finish_non_exhaustive()
    }
}

impl Directory {
    /// A directory over `manager`'s servers and store.
    pub fn new(manager: Arc<Manager>) -> Self {
        Directory {
            manager,
            oidc: None,
            tokens: Mutex::new(TokenCache::default()),
            uses: Mutex::new(HashMap::new()),
        }
    }

    /// Also accepts OIDC access tokens: JWT-shaped bearer tokens go to `oidc`.
    pub fn with_oidc(mut self, oidc: Arc<OidcIdentity>) -> Self {
        self.oidc = Some(oidc);
        self
    }

    /// The OIDC identity, when configured.
    pub fn oidc(&self) -> Option<&Arc<OidcIdentity>> {
        self.oidc.as_ref()
    }

    /// The manager whose servers the gate consults.
    pub fn manager(&self) -> &Arc<Manager> {
        &self.manager
    }

    /// Resolves one request's wiki and token.
    pub(crate) async fn resolve(
        &self,
        wiki: &WikiId,
        token: Option<String>,
    ) -> Result<Resolution, Error> {
        let mut server = self
            .manager
            .server(wiki)
            .await?
            .filter(|server| server.enabled());
        let bearer = match (&server, token) {
            (Some(_), Some(token)) => self.bearer_of(token).await?,
            _ => None,
        };
        if let Some(bearer) = &bearer
            && bearer.linked_now
        {
            // The sign-in created or adopted a user: the server's view of the users and rights
            // predates it, and this very request must be served as that user.
            server = self
                .manager
                .server(wiki)
                .await?
                .filter(|server| server.enabled());
        }
        Ok(Resolution { server, bearer })
    }

    /// Whom `token` authenticates: an OIDC access token's user (when configured and the token
    /// is JWT-shaped) or an API token's, with its scope; `None` when it is refused.
    pub(crate) async fn bearer_of(&self, token: String) -> Result<Option<Bearer>, Error> {
        if let Some(oidc) = &self.oidc
            && oidc_verifier::is_jwt_shaped(&token)
        {
            let seq = self.manager.change_seq();
            let bearer = oidc
                .bearer_of(self.manager.store(), &token, seq)
                .await?
                .ok();
            return Ok(bearer.map(|bearer| Bearer {
                user: bearer.user.name,
                scope: None,
                oidc_reads_only: bearer.access == OidcAccess::ReadOnly,
                linked_now: bearer.user.linked_now,
            }));
        }
        let owner = self.owner_of(token).await?;
        Ok(owner.map(|owner| {
            self.note_use(&owner.prefix);
            Bearer {
                user: owner.user,
                scope: owner.scope,
                oidc_reads_only: false,
                linked_now: false,
            }
        }))
    }

    async fn owner_of(&self, token: String) -> Result<Option<TokenOwner>, Error> {
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        // `server()` just polled the change sequence: a cache from an older sequence is stale.
        let seq = self.manager.change_seq();
        {
            let mut cache = self.tokens.lock();
            if cache.seq != seq {
                *cache = TokenCache {
                    seq,
                    owners: HashMap::new(),
                };
            }
            if let Some(owner) = cache.owners.get(&digest) {
                return Ok(owner.clone());
            }
        }
        let store = Arc::clone(self.manager.store());
        let owner = tokio::task::spawn_blocking(move || {
            let grant = store.resolve_token_grant(&token)?;
            // The prefix is the public half of the token, safe to keep.
            Ok::<_, wiki_store::StoreError>(grant.map(|grant| TokenOwner {
                user: grant.user,
                prefix: Arc::from(grant.prefix),
                scope: (!grant.scope.is_full()).then(|| Arc::new(grant.scope)),
            }))
        })
        .await
        .map_err(|error| Error::Join(error.to_string()))??;
        let mut cache = self.tokens.lock();
        if cache.seq == seq {
            if cache.owners.len() >= MAX_CACHED_TOKENS {
                cache.owners.clear();
            }
            cache.owners.insert(digest, owner.clone());
        }
        Ok(owner)
    }

    /// Notes that the token with `prefix` was used now: memory only, written by the next flush.
    fn note_use(&self, prefix: &str) {
        let now = OffsetDateTime::now_utc();
        let mut uses = self.uses.lock();
        match uses.get_mut(prefix) {
            Some(latest) => *latest = (*latest).max(now),
            None => {
                uses.insert(prefix.to_owned(), now);
            }
        }
    }

    /// Writes the token uses noted since the last flush to the store, on the blocking pool, and
    /// forgets them. A failure is logged at WARN and the uses it concerned are dropped: the
    /// next use of the token notes it again, and "last used" is advisory.
    ///
    /// The serving loop calls this about once a minute and once after shutdown; a caller
    /// wanting the uses on record now (a test) may call it too.
    pub async fn flush_token_uses(&self) {
        let pending = std::mem::take(&mut *self.uses.lock());
        if pending.is_empty() {
            return;
        }
        let store = Arc::clone(self.manager.store());
        let written = tokio::task::spawn_blocking(move || {
            for (prefix, at) in pending {
                if let Err(error) = store.record_token_use(&prefix, at) {
                    tracing::warn!(token = %prefix, %error, "recording a token's last use failed");
                }
            }
        })
        .await;
        if let Err(error) = written {
            tracing::warn!(%error, "recording token uses did not finish");
        }
    }

    /// Flushes token uses every [`TOKEN_USE_FLUSH_INTERVAL`] until `shutdown` is cancelled.
    /// The final flush is the caller's, once in-flight requests are done.
    pub(crate) async fn flush_token_uses_until(&self, shutdown: CancellationToken) {
        let start = tokio::time::Instant::now() + TOKEN_USE_FLUSH_INTERVAL;
        let mut ticks = tokio::time::interval_at(start, TOKEN_USE_FLUSH_INTERVAL);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = shutdown.cancelled() => return,
                _ = ticks.tick() => self.flush_token_uses().await,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use wiki_store::model::token::TokenInfo;
    use wiki_store::{ChangeFeed, SqliteStore, Store, TokenStore, UserStore};

    use super::*;
    use crate::server::ServerSettings;

    fn listed(store: &SqliteStore, prefix: &str) -> TokenInfo {
        store
            .list_tokens(None)
            .unwrap()
            .into_iter()
            .find(|token| token.prefix == prefix)
            .unwrap()
    }

    #[tokio::test]
    async fn a_request_with_a_token_is_recorded_as_its_last_use_on_flush_not_per_request() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(dir.path()).unwrap();
        store.create_user("alice", None).unwrap();
        let used = store.create_token("alice", "laptop").unwrap();
        let idle = store.create_token("alice", "ci").unwrap();
        let shared: Arc<dyn Store> = Arc::new(store.clone());
        let directory = Directory::new(Arc::new(
            Manager::new(shared, ServerSettings::default()).unwrap(),
        ));
        let main = WikiId::main();
        let before = OffsetDateTime::now_utc() - Duration::from_millis(1);

        for _ in 0..3 {
            let resolution = directory
                .resolve(&main, Some(used.token.expose().to_owned()))
                .await
                .unwrap();
            assert_eq!(
                resolution.bearer.map(|bearer| bearer.user).as_deref(),
                Some("alice")
            );
        }
        let invalid = format!("{}x", used.token.expose());
        let resolution = directory.resolve(&main, Some(invalid)).await.unwrap();
        assert!(resolution.bearer.is_none());
        assert_eq!(
            listed(&store, &used.info.prefix).last_used,
            None,
            "requests write nothing themselves"
        );

        let seq = store.change_seq().unwrap();
        directory.flush_token_uses().await;
        let first = listed(&store, &used.info.prefix).last_used.unwrap();
        assert!(
            before <= first && first <= OffsetDateTime::now_utc(),
            "{first} is the time of the last request"
        );
        assert_eq!(listed(&store, &idle.info.prefix).last_used, None);
        assert_eq!(
            store.change_seq().unwrap(),
            seq,
            "recording uses drops no server's caches"
        );

        // Stored to the millisecond: a few apart tell the second use from the first.
        tokio::time::sleep(Duration::from_millis(5)).await;
        directory
            .resolve(&main, Some(used.token.expose().to_owned()))
            .await
            .unwrap();
        directory.flush_token_uses().await;
        let second = listed(&store, &used.info.prefix).last_used.unwrap();
        assert!(second > first, "a later use moves it forward");
    }
}
