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
}

/// A token just created: the clear text to show its owner once, and what is stored.
#[derive(Debug, Clone)]
pub struct IssuedToken {
    /// The token in clear; the store cannot show it again.
    pub token: ClearToken,
    /// Its listing.
    pub info: TokenInfo,
}
