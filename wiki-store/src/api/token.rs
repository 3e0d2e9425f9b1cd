//! API tokens: random, shown once, stored hashed, resolved to a user in constant time.

use time::OffsetDateTime;

use crate::Result;
use crate::model::token::{IssuedToken, TokenGrant, TokenInfo, TokenScope};

/// API tokens: random, shown once, stored hashed, resolved to a user in constant time.
///
/// See [`crate::secret::token`] for the format and why a SHA-256 digest suffices. Creating and
/// revoking advance the change sequence, so a server caching resolutions drops a revoked token
/// on its next request.
pub trait TokenStore {
    /// Creates a full token for an existing registered user (never the guest). The clear token
    /// is in the result and nowhere else.
    fn create_token(&self, user: &str, label: &str) -> Result<IssuedToken> {
        self.create_scoped_token(user, label, &TokenScope::full())
    }

    /// Creates a token for an existing registered user (never the guest) that may be used only
    /// as `scope` says ([`TokenScope`]: checked, its lists normalized; an empty list or an
    /// expiry not in the future is refused).
    fn create_scoped_token(
        &self,
        user: &str,
        label: &str,
        scope: &TokenScope,
    ) -> Result<IssuedToken>;

    /// Tokens of `user`, or of everyone with `None`, oldest first.
    fn list_tokens(&self, user: Option<&str>) -> Result<Vec<TokenInfo>>;

    /// Revokes the token with this prefix; [`crate::StoreError::NotFound`] if there is none.
    fn revoke_token(&self, prefix: &str) -> Result<()>;

    /// Records that the token with this prefix authenticated a request at `at`, when that is
    /// later than the use already recorded (an earlier or equal time leaves it as it is).
    ///
    /// Usage is bookkeeping, not a change: it neither advances the change sequence nor emits a
    /// change event, so recording it drops no server's caches. It does commit, so callers batch
    /// uses (about once a minute per token) rather than record one per request. An unknown or
    /// revoked prefix is a no-op, not an error: a token revoked between its use and the record
    /// has nothing left to mark.
    fn record_token_use(&self, prefix: &str, at: OffsetDateTime) -> Result<()>;

    /// The user a presented token authenticates, or `None` for an unknown, revoked, expired or
    /// malformed token. The digest comparison is constant-time.
    fn resolve_token(&self, presented: &str) -> Result<Option<String>> {
        let now = OffsetDateTime::now_utc();
        Ok(self
            .resolve_token_grant(presented)?
            .filter(|grant| !grant.scope.expired_at(now))
            .map(|grant| grant.user))
    }

    /// What a presented token grants (its user and scope), or `None` for an unknown, revoked or
    /// malformed token. An expired token resolves too, so a server can say it expired: the
    /// caller checks [`TokenScope::expired_at`].
    fn resolve_token_grant(&self, presented: &str) -> Result<Option<TokenGrant>>;
}
