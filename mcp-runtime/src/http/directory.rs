//! What the HTTP gate asks on every request: is `{wiki}` served, and whom does the bearer
//! token authenticate.
//!
//! The wiki comes from the server [`Manager`], which polls the store's change sequence on every
//! request and rebuilds a wiki's server when its configuration changed, so the gate and the
//! tools always agree on the configuration. Token resolutions are cached beside it and dropped
//! whenever that change sequence moves (any write by any process advances it, a token revoked
//! by an admin command in another process included): a request costs one read of the change
//! sequence, and a revocation applies from the next request on.

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;
use sha2::{Digest, Sha256};
use wiki_store::model::wiki::WikiId;

use crate::server::{Manager, ManagerError, WikiServer};

/// The answers for one request.
#[derive(Debug, Clone)]
pub(crate) struct Resolution {
    /// The wiki's server; `None` when the wiki does not exist or its endpoint is disabled (404).
    pub(crate) server: Option<Arc<WikiServer>>,
    /// The presented token's user; `None` when no token was presented or it is invalid (only
    /// looked up for a served wiki).
    pub(crate) user: Option<String>,
}

/// Cached resolutions beyond which the token cache starts over (bounds memory when someone
/// sprays random tokens).
const MAX_CACHED_TOKENS: usize = 10_000;

/// The manager's servers, and token resolutions cached until the store changes.
pub struct Directory {
    manager: Arc<Manager>,
    tokens: Mutex<TokenCache>,
}

#[derive(Default)]
struct TokenCache {
    seq: u64,
    /// Keyed by the token's SHA-256, so no clear token is kept in memory.
    users: HashMap<[u8; 32], Option<String>>,
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
            tokens: Mutex::new(TokenCache::default()),
        }
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
    ) -> Result<Resolution, ManagerError> {
        let server = self
            .manager
            .server(wiki)
            .await?
            .filter(|server| server.enabled());
        let user = match (&server, token) {
            (Some(_), Some(token)) => self.user_of(token).await?,
            _ => None,
        };
        Ok(Resolution { server, user })
    }

    async fn user_of(&self, token: String) -> Result<Option<String>, ManagerError> {
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        // `server()` just polled the change sequence: a cache from an older sequence is stale.
        let seq = self.manager.change_seq();
        {
            let mut cache = self.tokens.lock();
            if cache.seq != seq {
                *cache = TokenCache {
                    seq,
                    users: HashMap::new(),
                };
            }
            if let Some(user) = cache.users.get(&digest) {
                return Ok(user.clone());
            }
        }
        let store = Arc::clone(self.manager.store());
        let user = tokio::task::spawn_blocking(move || store.resolve_token(&token))
            .await
            .map_err(|error| ManagerError::Join(error.to_string()))??;
        let mut cache = self.tokens.lock();
        if cache.seq == seq {
            if cache.users.len() >= MAX_CACHED_TOKENS {
                cache.users.clear();
            }
            cache.users.insert(digest, user.clone());
        }
        Ok(user)
    }
}
