//! API tokens as listed (never the secret).

use time::OffsetDateTime;

use crate::secret::token::ClearToken;

/// What the store knows about a token: everything but the secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenInfo {
    /// The visible prefix that names the token (for listing and revoking).
    pub prefix: String,
    /// The user the token authenticates as.
    pub user: String,
    /// A label to tell tokens apart ("laptop", "ci").
    pub label: String,
    /// When it was created.
    pub created: OffsetDateTime,
    /// When it last authenticated a request, as far as the store knows: `None` until its first
    /// recorded use. Servers record uses about once a minute per token, so this is "last used"
    /// to the minute, and a use not yet flushed (or lost to a crash) is missing.
    pub last_used: Option<OffsetDateTime>,
}

/// A token just created: the clear text to show its owner once, and what is stored.
#[derive(Debug, Clone)]
pub struct IssuedToken {
    /// The token in clear; the store cannot show it again.
    pub token: ClearToken,
    /// Its listing.
    pub info: TokenInfo,
}
