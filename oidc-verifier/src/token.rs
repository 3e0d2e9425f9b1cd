//! What a verified token tells the server.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use crate::algorithm::SigningAlgorithm;
use crate::issuer::IssuerUrl;

/// An access token whose signature, issuer, audience and times all check, and the user it
/// names. Cheap to clone (its parts are shared), so the verified-token cache hands out copies.
///
/// `Debug` shows who and until when, not the claims (which may carry personal data such as an
/// email address).
#[derive(Clone)]
pub struct VerifiedToken {
    inner: Arc<Parts>,
}

/// The parts of a [`VerifiedToken`], gathered by the verifier.
pub(crate) struct Parts {
    pub(crate) issuer: IssuerUrl,
    pub(crate) subject: String,
    pub(crate) user: String,
    pub(crate) user_claim: String,
    pub(crate) expires_at: u64,
    pub(crate) issued_at: Option<u64>,
    pub(crate) algorithm: SigningAlgorithm,
    pub(crate) key_id: Option<String>,
    pub(crate) claims: Map<String, Value>,
}

impl VerifiedToken {
    pub(crate) fn new(parts: Parts) -> Self {
        VerifiedToken {
            inner: Arc::new(parts),
        }
    }

    /// The configured issuer that signed it (its `iss`).
    pub fn issuer(&self) -> &IssuerUrl {
        &self.inner.issuer
    }

    /// Its `sub`: the user's stable id at the issuer.
    pub fn subject(&self) -> &str {
        &self.inner.subject
    }

    /// The user name: the configured user claim, or `sub` when the token lacks that claim.
    /// Not yet a wiki user: the server decides whether the name exists (or creates it).
    pub fn user(&self) -> &str {
        &self.inner.user
    }

    /// The claim [`user`](Self::user) came from (for the log: `sub` means the fallback ran).
    pub fn user_claim(&self) -> &str {
        &self.inner.user_claim
    }

    /// When it expires (its `exp`; the leeway is not added).
    pub fn expires_at(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(self.inner.expires_at)
    }

    /// Its `exp`, in Unix seconds.
    pub fn expires_at_unix(&self) -> u64 {
        self.inner.expires_at
    }

    /// When it was issued (its `iat`), if it says.
    pub fn issued_at(&self) -> Option<SystemTime> {
        self.inner
            .issued_at
            .map(|iat| UNIX_EPOCH + Duration::from_secs(iat))
    }

    /// The algorithm it was signed with.
    pub fn algorithm(&self) -> SigningAlgorithm {
        self.inner.algorithm
    }

    /// The `kid` of the key that verified it, if the token named one.
    pub fn key_id(&self) -> Option<&str> {
        self.inner.key_id.as_deref()
    }

    /// Its space-separated `scope` claim (RFC 9068 §2.2.3), split; empty when absent.
    pub fn scopes(&self) -> impl Iterator<Item = &str> {
        self.claim("scope")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .split_ascii_whitespace()
    }

    /// One claim, verified with the rest (for what this crate does not interpret: roles,
    /// groups, email).
    pub fn claim(&self, name: &str) -> Option<&Value> {
        self.inner.claims.get(name)
    }

    /// Every claim.
    pub fn claims(&self) -> &Map<String, Value> {
        &self.inner.claims
    }
}

impl std::fmt::Debug for VerifiedToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VerifiedToken")
            .field("issuer", &self.inner.issuer.as_str())
            .field("subject", &self.inner.subject)
            .field("user", &self.inner.user)
            .field("user_claim", &self.inner.user_claim)
            .field("expires_at", &self.inner.expires_at)
            .field("algorithm", &self.inner.algorithm)
            .field("key_id", &self.inner.key_id)
            .finish_non_exhaustive()
    }
}
