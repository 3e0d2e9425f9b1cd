//! OIDC access-token verification for a resource server.
//!
//! A server that accepts `Authorization: Bearer <JWT>` from an OpenID Connect provider
//! (Keycloak, Entra ID, Okta, Auth0…) needs the provider's signing keys and a strict check of
//! every token. This crate does that and nothing else: no web framework, no user store. The
//! server asks [`Verifier::verify`] and maps the answer to its own users and responses.
//!
//! ```no_run
//! use oidc_verifier::{IssuerUrl, Verifier, VerifierConfig};
//!
//! # async fn serve() -> Result<(), oidc_verifier::ConfigError> {
//! let issuer: IssuerUrl = "https://idp.example.com/realms/acme".parse()?;
//! let verifier = Verifier::new(VerifierConfig::new([issuer], "wiki-mcp")?)?;
//! // Fetch keys now; an issuer that is down is retried on its first token.
//! tokio::spawn({
//!     let verifier = verifier.clone();
//!     async move { verifier.prefetch().await }
//! });
//! // On each request:
//! match verifier.verify_authorization("Bearer eyJ…").await {
//!     Ok(token) => tracing::info!(user = token.user(), sub = token.subject(), "signed in"),
//!     // 401 with `WWW-Authenticate: Bearer error="invalid_token"`; the reason is for the log.
//!     Err(refusal) => tracing::info!(%refusal, "bearer token refused"),
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # What is checked
//!
//! - **Shape**: JWS compact serialization, at most [`VerifierConfig::max_token_bytes`]; no
//!   `crit` header.
//! - **Algorithm**: RS256, PS256 or ES256 ([`SigningAlgorithm`]); `none` and every HMAC
//!   algorithm are refused by name before any key is looked at, so an HS256 token "signed"
//!   with a public key fails whatever the key set holds.
//! - **Key**: from the key set of the issuer the token's `iss` names (so one issuer's key never
//!   vouches for another's token), by `kid` (every fitting key when the token names none); its
//!   type, curve, declared `alg`, `use` and `key_ops` must fit the token's algorithm; RSA keys
//!   have 2048 bits or more.
//! - **Claims**: `iss` a configured issuer, `aud` (string or array) containing the audience,
//!   `exp` required, `nbf` and `iat` honoured, all with [`VerifierConfig::leeway`]; `sub`
//!   required.
//! - **User**: [`UserClaim`] (default `preferred_username`, falling back to `sub`).
//!
//! # Keys
//!
//! Each issuer's `/.well-known/openid-configuration` is fetched (its `issuer` must equal the
//! configured one), then its `jwks_uri`. Fetches are bounded ([`FetchLimits`]), use https, or
//! http on a loopback address only, and follow no redirect. [`RefreshPolicy`] says when keys
//! are fetched again: on an unknown `kid` at most once a minute per issuer, in the background
//! when the set is an hour old, and with the cached keys kept whenever the provider is down.
//! A provider down at start-up is not an error: its tokens are refused, with the reason in the
//! log, until a lazy retry succeeds.
//!
//! # Cost
//!
//! A verified token is cached under its SHA-256 until it expires (bounded by
//! [`VerifierConfig::with_max_cached_tokens`]), so a client repeating its token costs a hash
//! and a lookup. The clock is injectable ([`Verifier::with_clock`], [`ManualClock`]).
//!
//! # Signing people in
//!
//! A server with web pages of its own can also be a relying party: [`LoginClient`] runs the
//! authorization-code flow with PKCE (S256), `state` and `nonce` at the same issuers, and
//! verifies the ID token with the same keys ([`Verifier::verify_id_token`]: `aud` is the client
//! id, `nonce` the one sent).
//!
//! # Testing servers built on this
//!
//! The `testing` feature adds the `testing` module: a local issuer on `127.0.0.1:0` with generated RSA
//! and P-256 keys, a token builder, and authorization and token endpoints that sign a chosen
//! user in, for tests of a server's own OIDC path.

// docs.rs (`--cfg docsrs`, nightly) marks each feature-gated item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod algorithm;
mod claims;
mod clock;
mod config;
mod discovery;
mod error;
mod fetch;
mod issuer;
mod issuer_keys;
mod jwks;
mod jws;
mod login;
mod token;
mod token_cache;
mod user;
mod verifier;

#[cfg(feature = "testing")]
pub mod testing;

pub use algorithm::SigningAlgorithm;
pub use clock::{Clock, ManualClock, SystemClock};
pub use config::{FetchLimits, MAX_LEEWAY, RefreshPolicy, VerifierConfig};
pub use error::{ConfigError, FetchError, Quoted, Refusal};
pub use issuer::IssuerUrl;
pub use issuer_keys::IssuerStatus;
pub use jws::is_jwt_shaped;
pub use login::{
    Callback, ClientCredentials, LoginClient, LoginError, LoginStart, PendingLogin, SCOPES,
};
pub use token::VerifiedToken;
pub use user::{MAX_USER_NAME_BYTES, ResolvedUser, SUBJECT_CLAIM, UserClaim};
pub use verifier::Verifier;
