//! The signature algorithms accepted, and the key each needs.
//!
//! Three, the set most providers settle on: RS256 (every provider's default), PS256
//! and ES256. Never `none`, and never an HMAC algorithm: with a public key set, an HMAC "key"
//! would be public too, and the classic confusion attack signs HS256 tokens with it. Refusing
//! the names before any key is looked at closes that door whatever the key set holds.

use std::fmt;

/// A JWS algorithm this verifier accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SigningAlgorithm {
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    RS256,
    /// RSASSA-PSS with SHA-256.
    PS256,
    /// ECDSA on P-256 with SHA-256.
    ES256,
}

/// The kind of key an algorithm verifies with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyFamily {
    /// `kty: RSA`.
    Rsa,
    /// `kty: EC`, `crv: P-256`.
    P256,
}

impl SigningAlgorithm {
    /// Every accepted algorithm.
    pub const ALL: [SigningAlgorithm; 3] = [Self::RS256, Self::PS256, Self::ES256];

    /// The algorithm a JWS header or JWK `alg` names, if accepted. Names are case-sensitive
    /// (RFC 7515 §4.1.1): `rs256` is not RS256.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|alg| alg.name() == name)
    }

    /// The registered name.
    pub fn name(self) -> &'static str {
        match self {
            Self::RS256 => "RS256",
            Self::PS256 => "PS256",
            Self::ES256 => "ES256",
        }
    }

    pub(crate) fn family(self) -> KeyFamily {
        match self {
            Self::RS256 | Self::PS256 => KeyFamily::Rsa,
            Self::ES256 => KeyFamily::P256,
        }
    }

    pub(crate) fn jsonwebtoken(self) -> jsonwebtoken::Algorithm {
        match self {
            Self::RS256 => jsonwebtoken::Algorithm::RS256,
            Self::PS256 => jsonwebtoken::Algorithm::PS256,
            Self::ES256 => jsonwebtoken::Algorithm::ES256,
        }
    }
}

impl fmt::Display for SigningAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for KeyFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KeyFamily::Rsa => "an RSA key",
            KeyFamily::P256 => "a P-256 key",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_three_asymmetric_algorithms_are_accepted_by_exact_name() {
        for alg in SigningAlgorithm::ALL {
            assert_eq!(SigningAlgorithm::from_name(alg.name()), Some(alg));
        }
        for refused in [
            "none", "None", "HS256", "HS512", "rs256", "RS384", "ES384", "EdDSA", "",
        ] {
            assert_eq!(SigningAlgorithm::from_name(refused), None, "{refused}");
        }
    }
}
