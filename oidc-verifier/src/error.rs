//! The crate's three outcomes that are not a verified token, one enum per audience.
//!
//! - [`ConfigError`]: the operator's configuration cannot work; raised once, at start-up, and
//!   worth refusing to start over (unlike an issuer being down, which never is).
//! - [`Refusal`]: one presented token is not accepted. Its `Display` is written for the server's
//!   log; the client is told nothing beyond RFC 6750's `invalid_token`, so a refusal may name
//!   claims, key ids and times, but never the token itself.
//! - [`FetchError`]: an issuer's metadata or key set could not be fetched or was not acceptable;
//!   logged by the verifier, kept in [`IssuerStatus`](crate::IssuerStatus), and quoted in the
//!   refusals it causes.

use std::fmt;

/// Why a [`VerifierConfig`](crate::VerifierConfig) or the verifier built from it is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// An issuer URL is unusable.
    #[error("OIDC issuer `{url}` is not accepted: {reason}")]
    InvalidIssuer {
        /// The URL as given.
        url: String,
        /// What is wrong and what to write instead.
        reason: &'static str,
    },
    /// No issuer was given.
    #[error("no OIDC issuer is configured: name at least one issuer URL")]
    NoIssuer,
    /// The same issuer was given twice.
    #[error("OIDC issuer `{0}` is configured twice: name each issuer once")]
    DuplicateIssuer(String),
    /// The audience is empty.
    #[error(
        "the OIDC audience is empty: name the audience your identity provider puts in the `aud` \
         claim of access tokens for this server"
    )]
    EmptyAudience,
    /// The user claim is unusable.
    #[error("OIDC user claim `{claim}` is not accepted: {reason}")]
    InvalidUserClaim {
        /// The claim name as given.
        claim: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A limit, interval or leeway is out of its range.
    #[error("OIDC setting `{setting}` is out of range: {reason}")]
    OutOfRange {
        /// The setting's name, as in the field or method that sets it.
        setting: &'static str,
        /// The accepted range.
        reason: &'static str,
    },
    /// The HTTPS client for fetching issuer metadata could not be built (for instance, no CA
    /// certificate could be loaded from the system).
    #[error(
        "cannot set up HTTPS for fetching OIDC issuer metadata: {0} (install the system's CA \
         certificates, or point SSL_CERT_FILE at a PEM bundle)"
    )]
    Tls(String),
}

/// Why one token is refused. Every variant maps to the same RFC 6750 `invalid_token` answer;
/// the distinction is for the log and for tests.
///
/// Strings that come from the token (issuer, key id, audience) are quoted and cut to a short
/// length before they are kept, so a refusal cannot inject lines or megabytes into a log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The credential is not `Bearer <token>`.
    #[error("the Authorization header is not `Bearer <token>`")]
    NotBearer,
    /// The token is longer than the configured maximum.
    #[error("the token is {bytes} bytes long, more than the {max} accepted")]
    TooLarge {
        /// The token's length.
        bytes: usize,
        /// The configured maximum.
        max: usize,
    },
    /// The token is not a JWS in compact serialization with JSON header and claims.
    #[error("malformed token: {0}")]
    Malformed(&'static str),
    /// The header names an algorithm this verifier does not accept (`none`, HMAC, anything but
    /// RS256, PS256 and ES256).
    #[error("the token's algorithm {0} is not accepted (only RS256, PS256 and ES256 are)")]
    UnsupportedAlgorithm(Quoted),
    /// The header marks extensions critical (`crit`); none is implemented, so RFC 7515 §4.1.11
    /// requires the refusal.
    #[error(
        "the token's header marks extensions critical (`crit`), which this verifier does not implement"
    )]
    CriticalHeader,
    /// The `iss` claim names no configured issuer.
    #[error("the token's issuer {0} is not a configured issuer")]
    UnknownIssuer(Quoted),
    /// A required claim is absent.
    #[error("the token has no `{0}` claim")]
    MissingClaim(&'static str),
    /// A claim has the wrong type or value.
    #[error("the token's `{claim}` claim is invalid: {reason}")]
    InvalidClaim {
        /// The claim.
        claim: &'static str,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// `aud` does not contain the configured audience.
    #[error("the token is for audience {found}, not for `{expected}`")]
    WrongAudience {
        /// The configured audience.
        expected: String,
        /// What the token's `aud` says.
        found: Quoted,
    },
    /// `exp` (plus the leeway) has passed.
    #[error("the token expired at {exp} (now {now}, leeway {leeway} s; Unix times)")]
    Expired {
        /// The token's `exp`.
        exp: u64,
        /// The verifier's clock.
        now: u64,
        /// The configured leeway in seconds.
        leeway: u64,
    },
    /// `nbf` (minus the leeway) has not come yet.
    #[error("the token is not valid before {nbf} (now {now}, leeway {leeway} s; Unix times)")]
    NotYetValid {
        /// The token's `nbf`.
        nbf: u64,
        /// The verifier's clock.
        now: u64,
        /// The configured leeway in seconds.
        leeway: u64,
    },
    /// `iat` (minus the leeway) is in the future: the issuer's clock or the token is wrong.
    #[error("the token claims to be issued at {iat}, in the future (now {now}, leeway {leeway} s)")]
    IssuedInFuture {
        /// The token's `iat`.
        iat: u64,
        /// The verifier's clock.
        now: u64,
        /// The configured leeway in seconds.
        leeway: u64,
    },
    /// The issuer's key set has no key for the token's `kid`, after the allowed refetch.
    #[error("issuer `{issuer}` has no signing key {kid} for this token ({detail})")]
    UnknownKey {
        /// The issuer whose key set was searched.
        issuer: String,
        /// The token's `kid` (`none` when it names none).
        kid: Quoted,
        /// Whether the set was refetched, or why not.
        detail: String,
    },
    /// The key the token names exists but cannot check this token: its type, curve, declared
    /// algorithm or declared use does not fit the token's algorithm.
    #[error("issuer `{issuer}`'s key {kid} cannot verify this token: {reason}")]
    KeyMismatch {
        /// The issuer.
        issuer: String,
        /// The key id.
        kid: Quoted,
        /// Why the key does not fit.
        reason: String,
    },
    /// No key set has been fetched for the issuer yet (it has been unreachable since start-up).
    #[error("no signing keys of issuer `{issuer}` are available yet: {reason}")]
    KeysUnavailable {
        /// The issuer.
        issuer: String,
        /// The latest fetch failure.
        reason: String,
    },
    /// The signature does not verify under the issuer's key.
    #[error("the token's signature does not verify under issuer `{issuer}`'s key {kid}")]
    BadSignature {
        /// The issuer.
        issuer: String,
        /// The key id tried (`none` when the token names none and every fitting key was tried).
        kid: Quoted,
    },
    /// An ID token names another issuer than the one the sign-in was sent to.
    #[error("the ID token's issuer {found} is not `{expected}`, where the sign-in began")]
    UnexpectedIssuer {
        /// The issuer the sign-in was sent to.
        expected: String,
        /// The token's `iss`.
        found: Quoted,
    },
    /// An ID token's `nonce` is absent or not the one this sign-in sent (a token minted for
    /// another sign-in, replayed).
    #[error("the ID token's nonce is not the one this sign-in sent")]
    WrongNonce,
    /// An ID token's `azp` is not this client, or it has several audiences and no `azp`.
    #[error("the ID token was issued to another client (azp {found})")]
    WrongAuthorizedParty {
        /// The token's `azp`.
        found: Quoted,
    },
    /// Neither the configured user claim nor `sub` names a usable user.
    #[error("the token names no user: {0}")]
    NoUser(String),
}

/// Why an issuer's metadata or key set was not taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FetchError {
    /// The request failed: connection refused, timeout, TLS failure, a refused redirect.
    #[error("cannot fetch {url}: {reason}")]
    Unreachable {
        /// The URL requested.
        url: String,
        /// The transport's reason, innermost cause last.
        reason: String,
    },
    /// The server answered with a status other than 200.
    #[error("{url} answered HTTP {status}")]
    Status {
        /// The URL requested.
        url: String,
        /// The status code.
        status: u16,
    },
    /// The document is larger than the configured maximum.
    #[error("{url} sent more than {max} bytes, the configured maximum")]
    TooLarge {
        /// The URL requested.
        url: String,
        /// The maximum.
        max: usize,
    },
    /// The document is not the JSON expected.
    #[error("{url} did not send a valid {document}: {reason}")]
    Invalid {
        /// The URL requested.
        url: String,
        /// `"OpenID Provider configuration"` or `"JWK set"`.
        document: &'static str,
        /// The parser's reason.
        reason: String,
    },
    /// The discovery document's `issuer` is not the configured issuer (OpenID Connect Discovery
    /// §4.3: a mismatch means the metadata belongs to someone else).
    #[error("the discovery document of `{expected}` names issuer {found}; they must be identical")]
    IssuerMismatch {
        /// The configured issuer.
        expected: String,
        /// What the document says.
        found: Quoted,
    },
    /// The discovery document's `jwks_uri` is not https (or http on a loopback address).
    #[error("the discovery document of `{issuer}` names an unusable jwks_uri {uri}: {reason}")]
    UnusableJwksUri {
        /// The issuer.
        issuer: String,
        /// The URI.
        uri: Quoted,
        /// Why it is refused.
        reason: &'static str,
    },
    /// The key set holds no key this verifier can use (RSA of 2048 bits or more, or P-256, for
    /// signatures).
    #[error("the key set at {url} has no usable signing key ({skipped} key(s) skipped)")]
    NoUsableKey {
        /// The JWKS URL.
        url: String,
        /// How many keys were present but unusable.
        skipped: usize,
    },
}

/// Text taken from a token or a remote document, made safe to log: quoted with escapes (no
/// control character survives) and cut after [`Quoted::MAX_CHARS`] characters.
#[derive(Clone, PartialEq, Eq)]
pub struct Quoted(String);

impl Quoted {
    /// How much of a foreign string is kept.
    pub const MAX_CHARS: usize = 96;

    /// Quotes `text`, cutting it if long.
    pub fn new(text: &str) -> Self {
        let mut quoted = String::with_capacity(text.len().min(Self::MAX_CHARS) + 2);
        quoted.push('`');
        for (count, c) in text.chars().enumerate() {
            if count == Self::MAX_CHARS {
                quoted.push('…');
                break;
            }
            if c == '`' || c == '\\' {
                quoted.push('\\');
                quoted.push(c);
            } else {
                quoted.extend(c.escape_debug());
            }
        }
        quoted.push('`');
        Quoted(quoted)
    }

    /// The placeholder for an absent value.
    pub fn absent() -> Self {
        Quoted("none".to_owned())
    }

    /// The quoted text, with its quotes.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<Option<&str>> for Quoted {
    fn from(text: Option<&str>) -> Self {
        text.map_or_else(Quoted::absent, Quoted::new)
    }
}

impl fmt::Display for Quoted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Quoted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_text_escapes_control_characters_and_is_cut() {
        assert_eq!(Quoted::new("a\nb`c").as_str(), "`a\\nb\\`c`");
        let long = "x".repeat(500);
        let quoted = Quoted::new(&long);
        assert_eq!(quoted.as_str().chars().count(), Quoted::MAX_CHARS + 3);
        assert!(quoted.as_str().ends_with("…`"));
        assert_eq!(Quoted::from(None).as_str(), "none");
    }
}
