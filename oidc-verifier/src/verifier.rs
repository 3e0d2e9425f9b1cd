//! The entry point: a token in, a [`VerifiedToken`] or a [`Refusal`] out.

use std::sync::Arc;

use crate::claims;
use crate::clock::{Clock, SystemClock, unix_seconds};
use crate::config::VerifierConfig;
use crate::error::{ConfigError, Quoted, Refusal};
use crate::fetch::Fetcher;
use crate::issuer::IssuerUrl;
use crate::issuer_keys::{Env, IssuerKeys, IssuerStatus};
use crate::jws::UnverifiedToken;
use crate::token::{Parts, VerifiedToken};
use crate::token_cache::{TokenCache, digest};
use crate::user::UserClaim;

/// Verifies OIDC access tokens for one resource server. Cheap to clone (clones share the key
/// sets and the token cache); build one at start-up and share it.
///
/// Needs a tokio runtime: fetches are async, and an aged key set is refreshed in a background
/// task.
#[derive(Debug, Clone)]
pub struct Verifier {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: VerifierConfig,
    issuers: Vec<Arc<IssuerKeys>>,
    env: Arc<Env>,
    leeway: u64,
}

impl Verifier {
    /// A verifier on the system clock. Does no I/O: an issuer that is down at start-up is not
    /// an error (see [`prefetch`](Self::prefetch)). Fails only on configuration that cannot
    /// work, such as https issuers on a host without CA certificates.
    pub fn new(config: VerifierConfig) -> Result<Self, ConfigError> {
        Self::with_clock(config, Arc::new(SystemClock))
    }

    /// A verifier reading time from `clock`: for tests of expiry and refetch intervals.
    pub fn with_clock(config: VerifierConfig, clock: Arc<dyn Clock>) -> Result<Self, ConfigError> {
        let https = config
            .issuers()
            .iter()
            .any(|issuer| issuer.discovery_url().scheme() == "https");
        let fetcher = Fetcher::new(config.fetch_limits(), https)?;
        let leeway = config.leeway().as_secs();
        let env = Arc::new(Env {
            fetcher,
            clock,
            policy: config.refresh_policy().clone(),
            cache: TokenCache::new(config.max_cached_tokens(), leeway),
        });
        let issuers = config
            .issuers()
            .iter()
            .map(|issuer| Arc::new(IssuerKeys::new(issuer.clone())))
            .collect();
        Ok(Verifier {
            inner: Arc::new(Inner {
                config,
                issuers,
                env,
                leeway,
            }),
        })
    }

    /// Fetches every issuer's metadata and keys now, concurrently, and reports how each went.
    /// Never fails: a failure is logged and retried lazily on the first token of that issuer.
    /// Await it before serving for a warm start, or spawn it to start serving at once.
    pub async fn prefetch(&self) -> Vec<IssuerStatus> {
        let mut tasks = tokio::task::JoinSet::new();
        for (index, keys) in self.inner.issuers.iter().enumerate() {
            let keys = Arc::clone(keys);
            let env = Arc::clone(&self.inner.env);
            tasks.spawn(async move { (index, keys.prefetch(&env).await) });
        }
        let mut statuses: Vec<Option<IssuerStatus>> = vec![None; self.inner.issuers.len()];
        while let Some(joined) = tasks.join_next().await {
            if let Ok((index, status)) = joined
                && let Some(slot) = statuses.get_mut(index)
            {
                *slot = Some(status);
            }
        }
        // A task that panicked (it does not) leaves its slot empty: report the issuer as is.
        statuses
            .into_iter()
            .zip(&self.inner.issuers)
            .map(|(status, keys)| status.unwrap_or_else(|| keys.status()))
            .collect()
    }

    /// Verifies an `Authorization` header value: `Bearer <token>` (the scheme in any case).
    pub async fn verify_authorization(&self, header: &str) -> Result<VerifiedToken, Refusal> {
        let mut parts = header.trim().splitn(2, ' ');
        let scheme = parts.next().unwrap_or_default();
        let token = parts.next().unwrap_or_default().trim();
        if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
            return Err(Refusal::NotBearer);
        }
        self.verify(token).await
    }

    /// Verifies a bearer token: signature (RS256, PS256 or ES256, under a key of the issuer
    /// its `iss` names), `iss`, `aud`, `exp`, `nbf`, `iat`, `sub`, and the user claim.
    ///
    /// A token verified before and not yet expired is answered from the cache without any of
    /// that. The refusal's `Display` is for the log; answer every refusal alike (RFC 6750
    /// `invalid_token`), so a client learns nothing about why.
    pub async fn verify(&self, token: &str) -> Result<VerifiedToken, Refusal> {
        self.check_size(token)?;
        let env = &self.inner.env;
        let now = unix_seconds(env.clock.now());
        let digest = digest(token);
        if let Some(verified) = env.cache.get(&digest, now) {
            return Ok(verified);
        }
        let parsed = UnverifiedToken::parse(token)?;
        let iss = claims::issuer(&parsed.claims)?;
        let keys = self
            .inner
            .issuers
            .iter()
            .find(|keys| keys.issuer().as_str() == iss)
            .ok_or_else(|| Refusal::UnknownIssuer(Quoted::new(iss)))?;
        // The key set is the one of the issuer the token claims, so a key of one configured
        // issuer never vouches for a token claiming another.
        keys.verify_signature(env, &parsed).await?;
        let checked = claims::check(
            &parsed.claims,
            self.inner.config.audience(),
            self.inner.leeway,
            now,
        )?;
        let verified = self.verified(keys.issuer(), checked, parsed)?;
        env.cache.insert(digest, verified.clone(), now);
        Ok(verified)
    }

    /// Verifies an OpenID Connect ID token that `issuer` returned to client `client_id` for a
    /// sign-in that sent `nonce` (OpenID Connect Core §3.1.3.7): the signature under `issuer`'s
    /// keys (fetched as for access tokens), `iss` equal to `issuer`, `aud` containing
    /// `client_id` (and `azp`, when present or when there are several audiences, equal to it),
    /// `exp`/`nbf`/`iat` with the leeway, `sub`, `nonce` equal to `nonce` (compared in constant
    /// time), and the user claim. Never cached: an ID token is used once.
    pub async fn verify_id_token(
        &self,
        token: &str,
        issuer: &IssuerUrl,
        client_id: &str,
        nonce: &str,
    ) -> Result<VerifiedToken, Refusal> {
        self.check_size(token)?;
        let env = &self.inner.env;
        let now = unix_seconds(env.clock.now());
        let parsed = UnverifiedToken::parse(token)?;
        let iss = claims::issuer(&parsed.claims)?;
        if iss != issuer.as_str() {
            return Err(Refusal::UnexpectedIssuer {
                expected: issuer.as_str().to_owned(),
                found: Quoted::new(iss),
            });
        }
        let keys = self
            .inner
            .issuers
            .iter()
            .find(|keys| keys.issuer() == issuer)
            .ok_or_else(|| Refusal::UnknownIssuer(Quoted::new(iss)))?;
        keys.verify_signature(env, &parsed).await?;
        let checked = claims::check(&parsed.claims, client_id, self.inner.leeway, now)?;
        claims::check_id_token(&parsed.claims, client_id, nonce)?;
        self.verified(keys.issuer(), checked, parsed)
    }

    /// Refuses a token longer than the configured maximum, before parsing it.
    fn check_size(&self, token: &str) -> Result<(), Refusal> {
        let max = self.inner.config.max_token_bytes();
        if token.len() > max {
            return Err(Refusal::TooLarge {
                bytes: token.len(),
                max,
            });
        }
        Ok(())
    }

    /// The verified token of `parsed`, whose signature and claims checked, with its user.
    fn verified(
        &self,
        issuer: &IssuerUrl,
        checked: claims::CheckedClaims,
        parsed: UnverifiedToken<'_>,
    ) -> Result<VerifiedToken, Refusal> {
        let user = self.inner.config.user_claim().resolve(&parsed.claims)?;
        Ok(VerifiedToken::new(Parts {
            issuer: issuer.clone(),
            subject: checked.subject,
            user: user.name,
            user_claim: user.claim,
            expires_at: checked.expires_at,
            issued_at: checked.issued_at,
            algorithm: parsed.alg,
            key_id: parsed.kid,
            claims: parsed.claims,
        }))
    }

    /// The bounded client every request to the issuers goes through.
    pub(crate) fn fetcher(&self) -> &Fetcher {
        &self.inner.env.fetcher
    }

    /// The configured issuers, in order: the RFC 9728 metadata's `authorization_servers`
    /// (`issuer.as_str()` each).
    pub fn issuers(&self) -> &[IssuerUrl] {
        self.inner.config.issuers()
    }

    /// The claim that names users; [`UserClaim::resolve`] applies it to any verified claims
    /// (an ID token's at the admin page's sign-in, say).
    pub fn user_claim(&self) -> &UserClaim {
        self.inner.config.user_claim()
    }

    /// The configuration this verifier was built from.
    pub fn config(&self) -> &VerifierConfig {
        &self.inner.config
    }

    /// Each issuer's keys and latest fetch, for an operator's view.
    pub fn status(&self) -> Vec<IssuerStatus> {
        self.inner
            .issuers
            .iter()
            .map(|keys| keys.status())
            .collect()
    }

    /// How many verified tokens the cache holds.
    pub fn cached_tokens(&self) -> usize {
        self.inner.env.cache.len()
    }
}
