//! API tokens as listed (never the secret), and what a token may be used for.

use time::OffsetDateTime;

use crate::secret::token::ClearToken;

/// What a token may be used for beyond authenticating its user: everything (the default, and
/// every token created before scopes existed), or less. The store keeps and returns the scope;
/// a server enforces it (which tools, which wikis; the expiry on every request, since a server
/// may cache a resolution while nothing changes).
///
/// Tool names are kept as given (ids or category names): the store knows no tool, and a server
/// reads them as it reads its own narrowings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TokenScope {
    /// Only tools that do not change content.
    pub read_only: bool,
    /// Only these tools (ids or category names), sorted; `None`: any the user may use.
    pub tools: Option<Vec<String>>,
    /// Only on these wikis, sorted; `None`: any.
    pub wikis: Option<Vec<String>>,
    /// When the token stops working; `None`: it does not expire.
    pub expires: Option<OffsetDateTime>,
}

impl TokenScope {
    /// The scope of a full token: no limit.
    pub fn full() -> Self {
        Self::default()
    }

    /// Whether the scope limits nothing.
    pub fn is_full(&self) -> bool {
        *self == Self::full()
    }

    /// Whether the token has expired at `now`.
    pub fn expired_at(&self, now: OffsetDateTime) -> bool {
        self.expires.is_some_and(|expires| expires <= now)
    }

    /// Whether the token may be used on `wiki`.
    pub fn allows_wiki(&self, wiki: &str) -> bool {
        self.wikis
            .as_ref()
            .is_none_or(|wikis| wikis.iter().any(|allowed| allowed == wiki))
    }
}

/// What a presented token authenticates: its user and its scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenGrant {
    /// The user the token authenticates as.
    pub user: String,
    /// The visible prefix that names the token.
    pub prefix: String,
    /// What it may be used for. An expired token still resolves to its grant, so a server can
    /// say it expired rather than that it is unknown: check [`TokenScope::expired_at`].
    pub scope: TokenScope,
}

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
    /// What it may be used for.
    pub scope: TokenScope,
}

/// A token just created: the clear text to show its owner once, and what is stored.
#[derive(Debug, Clone)]
pub struct IssuedToken {
    /// The token in clear; the store cannot show it again.
    pub token: ClearToken,
    /// Its listing.
    pub info: TokenInfo,
}
