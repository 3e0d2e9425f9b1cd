//! Verified tokens, kept until they expire so that a client repeating its token costs a hash
//! and a map lookup, not a signature check and a claims parse.
//!
//! Keyed by the token's SHA-256, so no bearer token is kept in memory. Only tokens that passed
//! every check get in, and an entry is not served past `exp + leeway` (the same bound the
//! checks apply). When full, expired entries go first; if it is still full, the cache starts
//! over: bounded memory matters more than the cost of re-verifying, which the next request of
//! each client pays once.

use std::collections::HashMap;

use parking_lot::Mutex;
use sha2::{Digest, Sha256};

use crate::issuer::IssuerUrl;
use crate::token::VerifiedToken;

/// The SHA-256 of a token's text.
pub(crate) type TokenDigest = [u8; 32];

/// The digest a token is cached under.
pub(crate) fn digest(token: &str) -> TokenDigest {
    Sha256::digest(token.as_bytes()).into()
}

/// Verified tokens by digest, bounded.
pub(crate) struct TokenCache {
    entries: Mutex<HashMap<TokenDigest, VerifiedToken>>,
    max_entries: usize,
    leeway: u64,
}

impl std::fmt::Debug for TokenCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenCache")
            .field("entries", &self.len())
            .field("max_entries", &self.max_entries)
            .finish()
    }
}

impl TokenCache {
    /// A cache of at most `max_entries` tokens (0: none), each served until `exp + leeway`.
    pub(crate) fn new(max_entries: usize, leeway: u64) -> Self {
        TokenCache {
            entries: Mutex::new(HashMap::new()),
            max_entries,
            leeway,
        }
    }

    /// The cached verification of the token with `digest`, unless expired as of `now`.
    pub(crate) fn get(&self, digest: &TokenDigest, now: u64) -> Option<VerifiedToken> {
        let mut entries = self.entries.lock();
        let token = entries.get(digest)?;
        if self.live(token, now) {
            return Some(token.clone());
        }
        entries.remove(digest);
        None
    }

    /// Keeps `token`, verified as of `now`.
    pub(crate) fn insert(&self, digest: TokenDigest, token: VerifiedToken, now: u64) {
        if self.max_entries == 0 {
            return;
        }
        let mut entries = self.entries.lock();
        if entries.len() >= self.max_entries && !entries.contains_key(&digest) {
            entries.retain(|_, token| self.live(token, now));
            if entries.len() >= self.max_entries {
                tracing::debug!(
                    entries = entries.len(),
                    "verified-token cache full of live tokens; starting over"
                );
                entries.clear();
            }
        }
        entries.insert(digest, token);
    }

    /// Drops every token of `issuer` (its key set lost a key: tokens that key signed must be
    /// checked again, and fail).
    pub(crate) fn forget_issuer(&self, issuer: &IssuerUrl) {
        self.entries
            .lock()
            .retain(|_, token| token.issuer() != issuer);
    }

    /// How many tokens are cached.
    pub(crate) fn len(&self) -> usize {
        self.entries.lock().len()
    }

    fn live(&self, token: &VerifiedToken, now: u64) -> bool {
        now < token.expires_at_unix().saturating_add(self.leeway)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::*;
    use crate::algorithm::SigningAlgorithm;
    use crate::token::Parts;

    fn token(issuer: &str, expires_at: u64) -> VerifiedToken {
        VerifiedToken::new(Parts {
            issuer: IssuerUrl::parse(issuer).unwrap_or_else(|e| panic!("{e}")),
            subject: "s".into(),
            user: "u".into(),
            user_claim: "sub".into(),
            expires_at,
            issued_at: None,
            algorithm: SigningAlgorithm::ES256,
            key_id: None,
            claims: Map::new(),
        })
    }

    const A: &str = "https://a.example.com";

    #[test]
    fn an_entry_is_served_until_exp_plus_leeway() {
        let cache = TokenCache::new(10, 60);
        cache.insert(digest("t"), token(A, 1_000), 900);
        assert!(cache.get(&digest("t"), 1_059).is_some());
        assert!(cache.get(&digest("t"), 1_060).is_none());
        assert_eq!(cache.len(), 0, "an expired entry is dropped when met");
        assert!(cache.get(&digest("other"), 900).is_none());
    }

    #[test]
    fn a_full_cache_drops_expired_entries_first_then_starts_over() {
        let cache = TokenCache::new(2, 0);
        cache.insert(digest("old"), token(A, 100), 50);
        cache.insert(digest("live"), token(A, 1_000), 50);
        cache.insert(digest("new"), token(A, 1_000), 200);
        assert!(cache.get(&digest("live"), 200).is_some());
        assert!(cache.get(&digest("new"), 200).is_some());
        cache.insert(digest("newer"), token(A, 1_000), 200);
        assert_eq!(cache.len(), 1);
        assert!(cache.get(&digest("newer"), 200).is_some());
        let off = TokenCache::new(0, 0);
        off.insert(digest("t"), token(A, 1_000), 0);
        assert_eq!(off.len(), 0);
    }

    #[test]
    fn forgetting_an_issuer_keeps_the_others() {
        let cache = TokenCache::new(10, 0);
        cache.insert(digest("a"), token(A, 1_000), 0);
        cache.insert(digest("b"), token("https://b.example.com", 1_000), 0);
        cache.forget_issuer(&IssuerUrl::parse(A).unwrap_or_else(|e| panic!("{e}")));
        assert!(cache.get(&digest("a"), 0).is_none());
        assert!(cache.get(&digest("b"), 0).is_some());
    }
}
