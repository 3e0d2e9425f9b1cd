//! API tokens: random, shown once, stored hashed, resolved to a user in constant time.

use crate::Result;
use crate::model::token::{IssuedToken, TokenInfo};

/// API tokens: random, shown once, stored hashed, resolved to a user in constant time.
///
/// See [`crate::secret::token`] for the format and why a SHA-256 digest suffices. Creating and
/// revoking advance the change sequence, so a server caching resolutions drops a revoked token
/// on its next request.
pub trait TokenStore {
    /// Creates a token for an existing registered user (never the guest). The clear token is in
    /// the result and nowhere else.
    fn create_token(&self, user: &str, label: &str) -> Result<IssuedToken>;

    /// Tokens of `user`, or of everyone with `None`, oldest first.
    fn list_tokens(&self, user: Option<&str>) -> Result<Vec<TokenInfo>>;

    /// Revokes the token with this prefix; [`crate::StoreError::NotFound`] if there is none.
    fn revoke_token(&self, prefix: &str) -> Result<()>;

    /// The user a presented token authenticates, or `None` for an unknown, revoked or malformed
    /// token. The digest comparison is constant-time.
    fn resolve_token(&self, presented: &str) -> Result<Option<String>>;
}
