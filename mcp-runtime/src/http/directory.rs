//! What the HTTP gate asks the store on every request, cached until the store changes.
//!
//! Each request needs two answers: is `{wiki}` served (and does it admit the guest), and whom
//! does the bearer token authenticate. Both are cached, and both caches are dropped whenever the
//! store's change sequence moves, which any write by any process does (an admin command revoking
//! a token or disabling a wiki in another process included). So a request costs one read of the
//! change sequence, and a revocation applies from the next request on.

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;
use sha2::{Digest, Sha256};
use wiki_store::model::wiki::WikiId;
use wiki_store::{Store, StoreError};

/// How a served wiki's endpoint admits callers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Endpoint {
    /// Whether a request without credentials runs as the guest (else 401).
    pub(crate) guest_access: bool,
}

/// The answers for one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Resolution {
    /// `None`: the wiki does not exist or its endpoint is disabled (404).
    pub(crate) endpoint: Option<Endpoint>,
    /// The presented token's user; `None` when no token was presented or it is invalid (only
    /// looked up for a served wiki).
    pub(crate) user: Option<String>,
}

/// Cache entries beyond which the token cache starts over (bounds memory under token guessing).
const MAX_CACHED_TOKENS: usize = 10_000;

/// The store, seen through caches invalidated by its change sequence.
pub struct Directory {
    store: Arc<dyn Store>,
    cache: Mutex<Cache>,
}

#[derive(Default)]
struct Cache {
    seq: Option<u64>,
    endpoints: HashMap<WikiId, Option<Endpoint>>,
    /// Keyed by the token's SHA-256, so no clear token is kept in memory.
    tokens: HashMap<[u8; 32], Option<String>>,
}

impl std::fmt::Debug for Directory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Directory").finish_non_exhaustive()
    }
}

impl Directory {
    /// A directory over `store`, with empty caches.
    pub fn new(store: Arc<dyn Store>) -> Self {
        Directory {
            store,
            cache: Mutex::new(Cache::default()),
        }
    }

    /// Resolves one request: blocking (store reads on a cache miss), so call it off the async
    /// workers.
    pub(crate) fn resolve(
        &self,
        wiki: &WikiId,
        token: Option<&str>,
    ) -> Result<Resolution, StoreError> {
        let seq = self.store.change_seq()?;
        {
            let mut cache = self.cache.lock();
            if cache.seq != Some(seq) {
                *cache = Cache {
                    seq: Some(seq),
                    ..Cache::default()
                };
            }
        }
        let endpoint = self.endpoint(wiki)?;
        let user = match (endpoint, token) {
            (Some(_), Some(token)) => self.user_of(token)?,
            _ => None,
        };
        Ok(Resolution { endpoint, user })
    }

    fn endpoint(&self, wiki: &WikiId) -> Result<Option<Endpoint>, StoreError> {
        if let Some(cached) = self.cache.lock().endpoints.get(wiki) {
            return Ok(*cached);
        }
        let endpoint = match self.store.wiki(wiki)? {
            None => None,
            Some(_) => {
                let config = self.store.mcp_config(wiki);
                config.enabled.then_some(Endpoint {
                    guest_access: config.guest_access,
                })
            }
        };
        self.cache.lock().endpoints.insert(wiki.clone(), endpoint);
        Ok(endpoint)
    }

    fn user_of(&self, token: &str) -> Result<Option<String>, StoreError> {
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        if let Some(cached) = self.cache.lock().tokens.get(&digest) {
            return Ok(cached.clone());
        }
        let user = self.store.resolve_token(token)?;
        let mut cache = self.cache.lock();
        if cache.tokens.len() >= MAX_CACHED_TOKENS {
            cache.tokens.clear();
        }
        cache.tokens.insert(digest, user.clone());
        Ok(user)
    }
}
