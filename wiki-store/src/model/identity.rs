//! Identities at an identity provider, bound to wiki users.
//!
//! An OpenID Connect token names its person by issuer and subject (`iss`, `sub`): the subject
//! is unique and stable at its issuer, and nothing else in the token is (OpenID Connect Core
//! §5.7: a relying party must not rely on `preferred_username` or `email` being unique, and
//! several providers let their users choose them). So a token signs in the wiki user its
//! `(issuer, subject)` is linked to, and no other: a link is made by an administrator, at the
//! identity's first sign-in when the server creates users, or when an identity claims a user
//! an administrator put up for adoption while moving a farm off name matching.

use time::OffsetDateTime;

/// The longest issuer URL stored, in bytes.
pub const MAX_ISSUER: usize = 2048;

/// The longest subject stored, in bytes (OpenID Connect allows 255 ASCII characters; some
/// providers use more, so there is room).
pub const MAX_SUBJECT: usize = 1024;

/// An identity at an issuer linked to a wiki user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdentityLink {
    /// The issuer's URL, exactly as its tokens' `iss` says it.
    pub issuer: String,
    /// The identity's `sub` at that issuer.
    pub subject: String,
    /// The wiki user it signs in.
    pub user: String,
    /// When the link was made.
    pub created: OffsetDateTime,
}

/// A user an administrator allowed to be claimed by name, once, by the first identity of
/// `issuer` whose token names it (`wiki-mcp oidc adopt`): how a farm that matched tokens to
/// users by name moves to links without knowing its users' subjects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdentityAdoption {
    /// The issuer whose token may claim the user.
    pub issuer: String,
    /// The user it may claim.
    pub user: String,
    /// When the adoption lapses, unclaimed.
    pub expires: OffsetDateTime,
}

/// The farm's identity links and what is pending, as listings show them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Identities {
    /// Every link, by user, issuer and subject.
    pub links: Vec<IdentityLink>,
    /// The adoptions not yet claimed nor lapsed, by issuer and user.
    pub adoptions: Vec<IdentityAdoption>,
    /// Whether the farm had users before identities were linked and no administrator has
    /// decided since how they meet their identities (`wiki-mcp oidc adopt`): until then a
    /// server configured with an issuer refuses to start, rather than let tokens that used to
    /// sign in by name stop working unexplained.
    pub upgrade_pending: bool,
}
