//! What the operator decides: which issuers, which audience, which claim names the user, and
//! the bounds on time, memory and the network. Checked when built, so a verifier built from a
//! [`VerifierConfig`] never meets a bad setting at request time.

use std::time::Duration;

use crate::error::ConfigError;
use crate::issuer::IssuerUrl;
use crate::user::UserClaim;

/// The largest leeway accepted: clocks of a provider and a server are seconds apart, and a
/// larger leeway would quietly extend every token's life.
pub const MAX_LEEWAY: Duration = Duration::from_secs(300);

/// Everything a [`Verifier`](crate::Verifier) needs to know, checked.
///
/// ```
/// use std::time::Duration;
/// use oidc_verifier::{IssuerUrl, UserClaim, VerifierConfig};
///
/// let issuer = IssuerUrl::parse("https://idp.example.com/realms/acme")?;
/// let config = VerifierConfig::new([issuer], "wiki-mcp")?
///     .with_user_claim(UserClaim::new("email")?)
///     .with_leeway(Duration::from_secs(30))?;
/// assert_eq!(config.issuers()[0].as_str(), "https://idp.example.com/realms/acme");
/// # Ok::<(), oidc_verifier::ConfigError>(())
/// ```
#[derive(Debug, Clone)]
pub struct VerifierConfig {
    issuers: Vec<IssuerUrl>,
    audience: String,
    user_claim: UserClaim,
    leeway: Duration,
    max_token_bytes: usize,
    max_cached_tokens: usize,
    fetch: FetchLimits,
    refresh: RefreshPolicy,
}

impl VerifierConfig {
    /// Default leeway on `exp`, `nbf` and `iat`.
    pub const DEFAULT_LEEWAY: Duration = Duration::from_secs(60);
    /// Default bound on a token's length: access tokens are rarely above 4 KiB, even with
    /// group claims, and a bound keeps parsing cheap.
    pub const DEFAULT_MAX_TOKEN_BYTES: usize = 16 * 1024;
    /// Default bound on the verified-token cache: a few thousand active clients, at a few KiB
    /// per entry (the claims are kept), so at most tens of MiB even with the largest tokens.
    pub const DEFAULT_MAX_CACHED_TOKENS: usize = 4096;

    /// Tokens from any of `issuers`, for `audience`, with every other setting at its default.
    pub fn new(
        issuers: impl IntoIterator<Item = IssuerUrl>,
        audience: &str,
    ) -> Result<Self, ConfigError> {
        let mut list: Vec<IssuerUrl> = Vec::new();
        for issuer in issuers {
            if list.contains(&issuer) {
                return Err(ConfigError::DuplicateIssuer(issuer.as_str().to_owned()));
            }
            list.push(issuer);
        }
        if list.is_empty() {
            return Err(ConfigError::NoIssuer);
        }
        if audience.trim().is_empty() {
            return Err(ConfigError::EmptyAudience);
        }
        Ok(VerifierConfig {
            issuers: list,
            audience: audience.to_owned(),
            user_claim: UserClaim::default(),
            leeway: Self::DEFAULT_LEEWAY,
            max_token_bytes: Self::DEFAULT_MAX_TOKEN_BYTES,
            max_cached_tokens: Self::DEFAULT_MAX_CACHED_TOKENS,
            fetch: FetchLimits::default(),
            refresh: RefreshPolicy::default(),
        })
    }

    /// Reads the user name from `claim` (falling back to `sub` when a token lacks it).
    pub fn with_user_claim(mut self, claim: UserClaim) -> Self {
        self.user_claim = claim;
        self
    }

    /// Tolerates clocks `leeway` apart on `exp`, `nbf` and `iat`; at most [`MAX_LEEWAY`].
    pub fn with_leeway(mut self, leeway: Duration) -> Result<Self, ConfigError> {
        if leeway > MAX_LEEWAY {
            return Err(ConfigError::OutOfRange {
                setting: "leeway",
                reason: "at most 300 seconds",
            });
        }
        self.leeway = leeway;
        Ok(self)
    }

    /// Refuses tokens longer than `bytes` before parsing them; at least 1 KiB.
    pub fn with_max_token_bytes(mut self, bytes: usize) -> Result<Self, ConfigError> {
        if bytes < 1024 {
            return Err(ConfigError::OutOfRange {
                setting: "max_token_bytes",
                reason: "at least 1024 bytes",
            });
        }
        self.max_token_bytes = bytes;
        Ok(self)
    }

    /// Keeps at most `entries` verified tokens; 0 turns the cache off (every request then costs
    /// a signature check).
    pub fn with_max_cached_tokens(mut self, entries: usize) -> Self {
        self.max_cached_tokens = entries;
        self
    }

    /// Bounds every fetch of metadata and keys.
    pub fn with_fetch_limits(mut self, limits: FetchLimits) -> Result<Self, ConfigError> {
        limits.check()?;
        self.fetch = limits;
        Ok(self)
    }

    /// Sets how often key sets may be fetched again.
    pub fn with_refresh_policy(mut self, policy: RefreshPolicy) -> Result<Self, ConfigError> {
        policy.check()?;
        self.refresh = policy;
        Ok(self)
    }

    /// The configured issuers, in the order given: what RFC 9728 metadata lists under
    /// `authorization_servers`.
    pub fn issuers(&self) -> &[IssuerUrl] {
        &self.issuers
    }

    /// The audience `aud` must contain.
    pub fn audience(&self) -> &str {
        &self.audience
    }

    /// The claim that names the user.
    pub fn user_claim(&self) -> &UserClaim {
        &self.user_claim
    }

    /// The leeway on token times.
    pub fn leeway(&self) -> Duration {
        self.leeway
    }

    /// The longest token accepted.
    pub fn max_token_bytes(&self) -> usize {
        self.max_token_bytes
    }

    /// The verified-token cache's bound.
    pub fn max_cached_tokens(&self) -> usize {
        self.max_cached_tokens
    }

    /// The fetch bounds.
    pub fn fetch_limits(&self) -> &FetchLimits {
        &self.fetch
    }

    /// The refresh policy.
    pub fn refresh_policy(&self) -> &RefreshPolicy {
        &self.refresh
    }
}

/// Bounds on one fetch of a discovery document or key set, so a slow or hostile issuer costs a
/// request at most `timeout` and `max_document_bytes` of memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchLimits {
    /// Time to establish the connection (TCP and TLS).
    pub connect_timeout: Duration,
    /// Time for the whole request, body included.
    pub timeout: Duration,
    /// The largest document read; larger ones are refused, not truncated.
    pub max_document_bytes: usize,
}

impl Default for FetchLimits {
    fn default() -> Self {
        FetchLimits {
            connect_timeout: Duration::from_secs(5),
            timeout: Duration::from_secs(10),
            // Real key sets are a few KiB (Entra ID's, the largest common one, is about 10 KiB).
            max_document_bytes: 256 * 1024,
        }
    }
}

impl FetchLimits {
    fn check(&self) -> Result<(), ConfigError> {
        let refuse = |setting, reason| Err(ConfigError::OutOfRange { setting, reason });
        if self.connect_timeout.is_zero() || self.connect_timeout > Duration::from_secs(60) {
            return refuse("connect_timeout", "between 1 ms and 60 s");
        }
        if self.timeout.is_zero() || self.timeout > Duration::from_secs(120) {
            return refuse("timeout", "between 1 ms and 120 s");
        }
        if !(1024..=16 * 1024 * 1024).contains(&self.max_document_bytes) {
            return refuse("max_document_bytes", "between 1 KiB and 16 MiB");
        }
        Ok(())
    }
}

/// When an issuer's key set is fetched again.
///
/// - A token naming an unknown `kid` (the provider rotated its keys) triggers a refetch, at most
///   once per `min_refetch_interval` per issuer, so a stream of forged `kid`s costs the provider
///   one request a minute, not one per token.
/// - A key set older than `max_key_age` is refreshed on the next token (keys the provider
///   withdrew stop verifying); a failed refresh keeps the cached keys.
/// - While no key set has ever been fetched (the provider was down at start-up), each token may
///   retry, at most once per `retry_without_keys`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefreshPolicy {
    /// Minimum time between two fetches of a key set that is already cached.
    pub min_refetch_interval: Duration,
    /// Age after which a cached key set is refreshed on use.
    pub max_key_age: Duration,
    /// Minimum time between two attempts while no key set is cached.
    pub retry_without_keys: Duration,
}

impl Default for RefreshPolicy {
    fn default() -> Self {
        RefreshPolicy {
            min_refetch_interval: Duration::from_secs(60),
            max_key_age: Duration::from_secs(3600),
            retry_without_keys: Duration::from_secs(5),
        }
    }
}

impl RefreshPolicy {
    fn check(&self) -> Result<(), ConfigError> {
        let refuse = |setting, reason| Err(ConfigError::OutOfRange { setting, reason });
        if self.min_refetch_interval < Duration::from_secs(1) {
            return refuse("min_refetch_interval", "at least 1 s");
        }
        if self.max_key_age < self.min_refetch_interval {
            return refuse("max_key_age", "at least min_refetch_interval");
        }
        if self.retry_without_keys < Duration::from_secs(1) {
            return refuse("retry_without_keys", "at least 1 s");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issuer(text: &str) -> IssuerUrl {
        IssuerUrl::parse(text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn issuers_and_audience_are_required_and_issuers_unique() {
        let a = issuer("https://a.example.com");
        assert_eq!(
            VerifierConfig::new([], "aud").err(),
            Some(ConfigError::NoIssuer)
        );
        assert_eq!(
            VerifierConfig::new([a.clone()], " ").err(),
            Some(ConfigError::EmptyAudience)
        );
        assert_eq!(
            VerifierConfig::new([a.clone(), a.clone()], "aud").err(),
            Some(ConfigError::DuplicateIssuer("https://a.example.com".into()))
        );
        let two = VerifierConfig::new([a, issuer("https://b.example.com")], "aud");
        assert_eq!(two.map(|c| c.issuers().len()).ok(), Some(2));
    }

    #[test]
    fn settings_out_of_range_are_refused() {
        let config = || VerifierConfig::new([issuer("https://a.example.com")], "aud");
        let setting = |result: Result<VerifierConfig, ConfigError>| match result {
            Err(ConfigError::OutOfRange { setting, .. }) => setting,
            other => panic!("expected a range error, got {other:?}"),
        };
        assert_eq!(
            setting(config().and_then(|c| c.with_leeway(Duration::from_secs(301)))),
            "leeway"
        );
        assert_eq!(
            setting(config().and_then(|c| c.with_max_token_bytes(10))),
            "max_token_bytes"
        );
        let no_body = FetchLimits {
            max_document_bytes: 0,
            ..FetchLimits::default()
        };
        assert_eq!(
            setting(config().and_then(|c| c.with_fetch_limits(no_body))),
            "max_document_bytes"
        );
        let hammering = RefreshPolicy {
            min_refetch_interval: Duration::ZERO,
            ..RefreshPolicy::default()
        };
        assert_eq!(
            setting(config().and_then(|c| c.with_refresh_policy(hammering))),
            "min_refetch_interval"
        );
    }
}
