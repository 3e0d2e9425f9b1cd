//! `serve`'s OIDC flags: accept access tokens from the organisation's identity provider beside
//! the API tokens, and, with a client id, sign administrators in on the admin page there.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use oidc_verifier::{ClientCredentials, IssuerUrl, UserClaim, Verifier, VerifierConfig};
use wiki_server::oidc::{OidcIdentity, ScopeGrants};

/// The identity provider whose access tokens sign users in.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct OidcArgs {
    /// An OpenID Connect issuer whose access tokens are accepted (`https://…`, or `http://` on
    /// a loopback address); its `/.well-known/openid-configuration` is read at start. Listed
    /// as an authorization server in the RFC 9728 metadata. Repeatable (comma-separated in the
    /// environment).
    #[arg(
        long = "oidc-issuer",
        env = "WIKI_MCP_OIDC_ISSUER",
        value_name = "URL",
        value_delimiter = ',',
        requires = "oidc_audience"
    )]
    oidc_issuers: Vec<String>,
    /// The audience the identity provider puts in the `aud` claim of tokens for this server.
    #[arg(
        long,
        env = "WIKI_MCP_OIDC_AUDIENCE",
        value_name = "AUD",
        requires = "oidc_issuers"
    )]
    oidc_audience: Option<String>,
    /// The token claim that names a new user created at its identity's first sign-in, or the
    /// user it adopts (falls back to `sub` when a token lacks it). A token signs in the user
    /// its issuer and subject are linked to, never the user this claim names.
    #[arg(
        long,
        env = "WIKI_MCP_OIDC_USER_CLAIM",
        value_name = "CLAIM",
        default_value = UserClaim::DEFAULT,
        requires = "oidc_issuers"
    )]
    oidc_user_claim: String,
    /// Give an identity linked to no wiki user a new user of its own at its first sign-in,
    /// named by the user claim (no group, no right of its own); a name that is already a
    /// user's is refused, never shared. Without it, unlinked identities are refused until an
    /// administrator links them (`wiki-mcp user link`).
    #[arg(
        long,
        env = "WIKI_MCP_OIDC_CREATE_USERS",
        value_parser = clap::builder::FalseyValueParser::new(),
        requires = "oidc_issuers"
    )]
    oidc_create_users: bool,
    /// The value of an access token's `scope` claim that grants reading only: such a token
    /// calls only tools that do not change content. A token whose scope names neither this
    /// nor --oidc-write-scope has all its user's rights, as before scopes were read.
    #[arg(
        long,
        env = "WIKI_MCP_OIDC_READ_SCOPE",
        value_name = "SCOPE",
        default_value = ScopeGrants::DEFAULT_READ,
        requires = "oidc_issuers"
    )]
    oidc_read_scope: String,
    /// The value of an access token's `scope` claim that grants writing (all its user's
    /// rights), even beside the read scope.
    #[arg(
        long,
        env = "WIKI_MCP_OIDC_WRITE_SCOPE",
        value_name = "SCOPE",
        default_value = ScopeGrants::DEFAULT_WRITE,
        requires = "oidc_issuers"
    )]
    oidc_write_scope: String,
    /// The client id this server is registered under at the identity provider: turns on
    /// "Sign in with …" on the admin page (authorization code with PKCE). Register
    /// `<public URL>/admin/oidc/callback` as its redirect URI.
    #[arg(
        long,
        env = "WIKI_MCP_OIDC_CLIENT_ID",
        value_name = "ID",
        requires = "oidc_issuers"
    )]
    oidc_client_id: Option<String>,
    /// The client secret, for a confidential client (sent with HTTP Basic at the token
    /// endpoint). Prefer --oidc-client-secret-file or the environment variable: a command
    /// line is visible to other users of the host. Without a secret the client is public.
    #[arg(
        long,
        value_name = "SECRET",
        env = "WIKI_MCP_OIDC_CLIENT_SECRET",
        hide_env_values = true,
        requires = "oidc_client_id",
        conflicts_with = "oidc_client_secret_file"
    )]
    oidc_client_secret: Option<String>,
    /// A file holding the client secret (its first line; surrounding whitespace ignored).
    #[arg(
        long,
        env = "WIKI_MCP_OIDC_CLIENT_SECRET_FILE",
        value_name = "PATH",
        requires = "oidc_client_id"
    )]
    oidc_client_secret_file: Option<PathBuf>,
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
        let mut identity = OidcIdentity::new(verifier, self.oidc_create_users).with_scope_grants(
            ScopeGrants::new(&self.oidc_read_scope, &self.oidc_write_scope),
        );
        if let Some(client_id) = &self.oidc_client_id {
            let secret = self.client_secret()?;
            identity = identity.with_login(ClientCredentials::new(client_id, secret.as_deref())?);
        }
        Ok(Some(Arc::new(identity)))
    }

    /// The client secret from the flag, the environment or the file.
    fn client_secret(&self) -> Result<Option<String>> {
        if let Some(secret) = &self.oidc_client_secret {
            return Ok(Some(secret.clone()));
        }
        let Some(path) = &self.oidc_client_secret_file else {
            return Ok(None);
        };
        let text = std::fs::read_to_string(path).with_context(|| {
            format!("cannot read the OIDC client secret file {}", path.display())
        })?;
        let secret = text.lines().next().unwrap_or_default().trim();
        if secret.is_empty() {
            anyhow::bail!(
                "the OIDC client secret file {} is empty: write the secret the identity provider \
                 issued on its first line",
                path.display()
            );
        }
        Ok(Some(secret.to_owned()))
    }
}
