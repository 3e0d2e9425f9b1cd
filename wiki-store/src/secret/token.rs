//! API tokens: random, shown once, stored as a SHA-256 digest, found by a visible prefix.
//!
//! A token reads `wmcp_<prefix>_<secret>`: `prefix` is 12 lowercase hex characters that identify
//! the token in listings and revocation (it is not secret), `secret` is 32 random bytes in
//! URL-safe base64. The store keeps the prefix and the SHA-256 of the whole token, so a stolen
//! database yields no usable token. Resolving a token looks its prefix up (an indexed lookup; the
//! prefix is public anyway) and compares digests with [`subtle`], so the comparison takes the same
//! time whatever bytes match. The secret has 256 bits of entropy, which is why a fast digest is
//! enough here, unlike for passwords chosen by people.

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::Rng;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// What every token starts with, so secret scanners and people can recognise one.
pub const TOKEN_TAG: &str = "wmcp";

const PREFIX_BYTES: usize = 6;
const SECRET_BYTES: usize = 32;

/// The SHA-256 digest of a whole token, as stored. Deliberately not `PartialEq`: the only
/// comparison is [`TokenDigest::matches`], in constant time.
#[derive(Clone, Copy)]
pub struct TokenDigest(pub [u8; 32]);

impl fmt::Debug for TokenDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenDigest(..)")
    }
}

impl TokenDigest {
    /// Whether two digests are equal, in time independent of their contents.
    pub fn matches(&self, other: &TokenDigest) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

/// A token in clear, as handed to its owner once. `Debug` does not show it, and it has no `==`
/// (a secret is never compared byte by byte with early exit).
#[derive(Clone)]
pub struct ClearToken(String);

impl ClearToken {
    /// The token text, to print once to its owner.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ClearToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ClearToken(..)")
    }
}

/// A freshly generated token: the clear text for its owner, and what the store keeps.
#[derive(Debug, Clone)]
pub struct GeneratedToken {
    /// The token in clear; never stored.
    pub clear: ClearToken,
    /// The visible prefix that names the token.
    pub prefix: String,
    /// The digest that is stored.
    pub digest: TokenDigest,
}

/// Generates a new token from the operating system's cryptographic random source (through
/// `rand`'s thread generator, which is seeded from it and is a CSPRNG).
pub fn generate() -> GeneratedToken {
    let mut rng = rand::rng();
    let mut prefix_bytes = [0u8; PREFIX_BYTES];
    let mut secret_bytes = [0u8; SECRET_BYTES];
    rng.fill_bytes(&mut prefix_bytes);
    rng.fill_bytes(&mut secret_bytes);
    let prefix: String = prefix_bytes.iter().map(|b| format!("{b:02x}")).collect();
    let clear = format!(
        "{TOKEN_TAG}_{prefix}_{}",
        URL_SAFE_NO_PAD.encode(secret_bytes)
    );
    let digest = digest_of(&clear);
    GeneratedToken {
        clear: ClearToken(clear),
        prefix,
        digest,
    }
}

/// A presented token split into the prefix to look up and the digest to compare.
#[derive(Debug, Clone)]
pub struct PresentedToken {
    /// The visible prefix.
    pub prefix: String,
    /// The digest of the whole presented text.
    pub digest: TokenDigest,
}

impl PresentedToken {
    /// The user this token authenticates, given what is stored under its prefix (the stored
    /// digest's bytes and the token's owner; `None` when no token has that prefix). The digests
    /// are compared in constant time, against a zero digest when the prefix is unknown or the
    /// stored digest malformed, so every path does the same work.
    pub fn authenticate<T>(&self, stored: Option<(Vec<u8>, T)>) -> Option<T> {
        let (digest, owner) = match stored {
            Some((bytes, owner)) => (
                <[u8; 32]>::try_from(bytes.as_slice()).unwrap_or([0; 32]),
                Some(owner),
            ),
            None => ([0; 32], None),
        };
        let matches = TokenDigest(digest).matches(&self.digest);
        owner.filter(|_| matches)
    }
}

/// Splits a presented token; `None` when it does not have the token shape (then no lookup is
/// needed: it cannot match any stored token).
pub fn parse(presented: &str) -> Option<PresentedToken> {
    let rest = presented.strip_prefix(TOKEN_TAG)?.strip_prefix('_')?;
    let (prefix, secret) = rest.split_once('_')?;
    let prefix_ok = prefix.len() == PREFIX_BYTES * 2
        && prefix
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if !prefix_ok || secret.is_empty() {
        return None;
    }
    Some(PresentedToken {
        prefix: prefix.to_owned(),
        digest: digest_of(presented),
    })
}

fn digest_of(token: &str) -> TokenDigest {
    TokenDigest(Sha256::digest(token.as_bytes()).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_token_parses_back_to_its_prefix_and_digest() {
        let token = generate();
        let presented = parse(token.clear.expose());
        assert!(presented.as_ref().is_some_and(|p| p.prefix == token.prefix));
        assert!(presented.is_some_and(|p| p.digest.matches(&token.digest)));
        assert!(
            token
                .clear
                .expose()
                .starts_with(&format!("wmcp_{}_", token.prefix))
        );
        assert_eq!(token.clear.expose().len(), 5 + 12 + 1 + 43);
    }

    #[test]
    fn tokens_are_unique_and_never_debug_printed() {
        let (a, b) = (generate(), generate());
        assert_ne!(a.clear.expose(), b.clear.expose());
        assert_ne!(a.prefix, b.prefix);
        let shown = format!("{a:?}");
        assert!(!shown.contains(a.clear.expose()), "{shown}");
    }

    #[test]
    fn an_altered_secret_keeps_the_prefix_but_not_the_digest() {
        let token = generate();
        let mut altered = token.clear.expose().to_owned();
        let last = if altered.ends_with('A') { "B" } else { "A" };
        altered.replace_range(altered.len() - 1.., last);
        let presented = parse(&altered);
        assert_eq!(
            presented.as_ref().map(|p| p.prefix.as_str()),
            Some(token.prefix.as_str())
        );
        assert!(presented.is_some_and(|p| !p.digest.matches(&token.digest)));
        assert!(token.digest.matches(&token.digest));
    }

    #[test]
    fn only_the_stored_digest_authenticates() {
        let token = generate();
        let Some(presented) = parse(token.clear.expose()) else {
            panic!("a generated token parses");
        };
        let stored = |digest: &TokenDigest| Some((digest.0.to_vec(), "alice".to_owned()));
        assert_eq!(
            presented.authenticate(stored(&token.digest)).as_deref(),
            Some("alice")
        );
        assert_eq!(presented.authenticate(stored(&generate().digest)), None);
        assert_eq!(
            presented.authenticate(Some((vec![1, 2, 3], String::from("alice")))),
            None
        );
        assert_eq!(presented.authenticate::<String>(None), None);
    }

    #[test]
    fn text_without_the_token_shape_is_not_looked_up() {
        for bad in [
            "",
            "wmcp",
            "wmcp_",
            "wmcp_0123456789ab",
            "wmcp_0123456789ab_",
            "wmcp_0123456789AB_secret",
            "wmcp_0123_secret",
            "xmcp_0123456789ab_secret",
            "Bearer wmcp_0123456789ab_secret",
        ] {
            assert!(parse(bad).is_none(), "{bad:?}");
        }
        assert!(parse("wmcp_0123456789ab_secret").is_some());
    }
}
