//! A local OIDC issuer for tests (feature `testing`): what a test needs to drive a verifier,
//! or a server built on one, through real discovery and JWKS fetches without a provider.
//!
//! - [`TestKey`]: an RSA (RS256, PS256) or P-256 (ES256) key pair generated in the test, with
//!   its public JWK.
//! - [`TestIssuer`]: discovery and JWKS served on `127.0.0.1:0` under `/realms/test`, with
//!   switches for the failures a verifier must survive (down, lying about its issuer, an
//!   oversized key set, stopped altogether) and counters of the requests it answered.
//! - The same issuer's authorization server: [`TestIssuer::register_client`], then an
//!   authorization endpoint that signs [`TestIssuer::sign_in_as`]'s user in (or asks for a
//!   name in a form) and a token endpoint that exchanges each code once, checking the client,
//!   redirect URI and PKCE verifier, for an ID token signed by the issuer's first key.
//! - [`TokenBuilder`]: tokens signed by a test key, or forged (`alg: none`, HS256 with a
//!   public key as the secret), with any claim changed.
//!
//! ```
//! # async fn demo() -> std::io::Result<()> {
//! use std::time::SystemTime;
//! use oidc_verifier::testing::{TestIssuer, TestKey};
//! use oidc_verifier::{SigningAlgorithm, Verifier, VerifierConfig};
//!
//! let key = TestKey::rsa("k1", SigningAlgorithm::RS256);
//! let issuer = TestIssuer::start(&[&key]).await?;
//! let config = VerifierConfig::new([issuer.issuer().clone()], "wiki").expect("valid");
//! let verifier = Verifier::new(config).expect("loopback needs no TLS roots");
//! let token = issuer.token("wiki", "alice", SystemTime::now()).sign(&key);
//! assert_eq!(verifier.verify(&token).await.map(|t| t.user().to_owned()), Ok("alice".into()));
//! # Ok(())
//! # }
//! ```
//!
//! Test support: a failure to generate a key or to sign is a bug, and panics.

mod issuer;
mod keys;
mod login;
mod tokens;

pub use issuer::TestIssuer;
pub use keys::TestKey;
pub use tokens::TokenBuilder;
