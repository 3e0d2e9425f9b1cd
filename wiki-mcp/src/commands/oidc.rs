//! `serve`'s OIDC flags: accept access tokens from the organisation's identity provider beside
//! the API tokens.

use std::sync::Arc;

use anyhow::{Context, Result};
use oidc_verifier::{IssuerUrl, UserClaim, Verifier, VerifierConfig};
use wiki_server::access::OidcIdentity;

/// The identity provider whose access tokens sign users in.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct OidcArgs {
    /// An OpenID Connect issuer whose access tokens are accepted (`https://…`, or `http://` on
    /// a loopback address); its `/.well-known/openid-configuration` is read at start. Listed
    /// as an authorization server in the RFC 9728 metadata. Repeatable.
    #[arg(long = "oidc-issuer", value_name = "URL", requires = "oidc_audience")]
    oidc_issuers: Vec<String>,
    /// The audience the identity provider puts in the `aud` claim of tokens for this server.
    #[arg(long, value_name = "AUD", requires = "oidc_issuers")]
    oidc_audience: Option<String>,
    /// The token claim that names the wiki user (falls back to `sub` when a token lacks it).
    #[arg(
        long,
        value_name = "CLAIM",
        default_value = UserClaim::DEFAULT,
        requires = "oidc_issuers"
    )]
    oidc_user_claim: String,
    /// Create the wiki user a valid token names when it does not exist (no group, no right of
    /// its own); without it, unknown users are refused.
    #[arg(long, requires = "oidc_issuers")]
    oidc_create_users: bool,
}

impl OidcArgs {
    /// The OIDC identity these flags configure, or `None` when no issuer is named. Does no I/O:
    /// the server fetches the issuers' keys when it starts serving.
    pub(crate) fn identity(&self) -> Result<Option<Arc<OidcIdentity>>> {
        let Some(audience) = &self.oidc_audience else {
            return Ok(None);
        };
        let issuers = self
            .oidc_issuers
            .iter()
            .map(|url| IssuerUrl::parse(url))
            .collect::<Result<Vec<_>, _>>()?;
        let config = VerifierConfig::new(issuers, audience)?
            .with_user_claim(UserClaim::new(&self.oidc_user_claim)?);
        let verifier = Verifier::new(config).context("cannot set up OIDC token verification")?;
        Ok(Some(Arc::new(OidcIdentity::new(
            verifier,
            self.oidc_create_users,
        ))))
    }
}
