//! Signing a person in at an issuer: OpenID Connect's authorization-code flow with PKCE, for a
//! server's own web pages (a relying party beside the resource server).
//!
//! [`LoginClient::begin`] draws a `state` (against login CSRF), a `nonce` (binds the ID token
//! to this sign-in) and a PKCE verifier (RFC 7636, `S256`: a stolen code is useless without
//! it), and returns the issuer's authorization URL with the [`PendingLogin`] the server keeps
//! until the browser comes back (in a cookie: [`PendingLogin::encode`]). [`LoginClient::finish`]
//! takes the callback's parameters: the `state` must be the pending one, an `iss` parameter
//! (RFC 9207) the issuer's, then the code is exchanged at the token endpoint (with the
//! verifier, and the client secret by HTTP Basic for a confidential client), and the ID token
//! goes through [`Verifier::verify_id_token`]: signature, `iss`, `aud` = the client id, times,
//! `nonce`. What it returns names the user exactly as an access token would.
//!
//! The endpoints come from the issuer's discovery document (cached for an hour) and pass the
//! same transport rule as every fetch (https, or http on loopback); requests are bounded as
//! the key fetches are. Hand-written on the verifier's client rather than with the `oauth2`
//! or `openidconnect` crates: the flow is two requests, the ID token must be checked by this
//! crate's verifier anyway, and those crates bring their own HTTP client stack.

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use parking_lot::Mutex;
use rand::Rng;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use url::Url;

use crate::discovery::{self, LoginEndpoints};
use crate::error::{FetchError, Quoted, Refusal};
use crate::issuer::{IssuerUrl, check_transport};
use crate::token::VerifiedToken;
use crate::verifier::Verifier;

/// How long discovered endpoints are reused before the document is read again.
const ENDPOINTS_TTL: Duration = Duration::from_secs(3600);

/// The scopes asked for: `openid` makes it an OpenID Connect sign-in; `profile` and `email`
/// carry the claims that usually name users (`preferred_username`, `email`).
pub const SCOPES: &str = "openid profile email";

/// The longest value accepted for a callback parameter (codes are a few hundred bytes).
const MAX_PARAMETER_BYTES: usize = 4096;

/// This server as a client of the issuers: its client id and, for a confidential client, its
/// secret (public clients rely on PKCE alone).
#[derive(Clone)]
pub struct ClientCredentials {
    id: String,
    secret: Option<String>,
}

impl std::fmt::Debug for ClientCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientCredentials")
            .field("id", &self.id)
            .field("secret", &self.secret.as_ref().map(|_| "…"))
            .finish()
    }
}

impl ClientCredentials {
    /// Client `id`, with `secret` when the issuer registered it as confidential. An empty id
    /// is refused; an empty secret counts as none.
    pub fn new(id: &str, secret: Option<&str>) -> Result<Self, crate::ConfigError> {
        let id = id.trim();
        if id.is_empty() {
            return Err(crate::ConfigError::OutOfRange {
                setting: "client_id",
                reason: "not empty: the client id the identity provider registered for this server",
            });
        }
        Ok(ClientCredentials {
            id: id.to_owned(),
            secret: secret
                .map(str::trim)
                .filter(|secret| !secret.is_empty())
                .map(str::to_owned),
        })
    }

    /// The client id: what an ID token's `aud` must contain.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Whether a secret is sent (a confidential client).
    pub fn is_confidential(&self) -> bool {
        self.secret.is_some()
    }
}

/// Signs people in at the verifier's issuers. Cheap to share behind an `Arc`.
#[derive(Debug)]
pub struct LoginClient {
    verifier: Verifier,
    client: ClientCredentials,
    endpoints: Mutex<HashMap<IssuerUrl, (SystemTime, LoginEndpoints)>>,
}

/// A sign-in sent to the issuer and not yet back: what the callback is checked against.
#[derive(Clone, PartialEq, Eq)]
pub struct PendingLogin {
    issuer: IssuerUrl,
    state: String,
    nonce: String,
    code_verifier: String,
}

impl std::fmt::Debug for PendingLogin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingLogin")
            .field("issuer", &self.issuer)
            .finish_non_exhaustive()
    }
}

/// Where to send the browser, and what to keep until it comes back.
#[derive(Debug, Clone)]
pub struct LoginStart {
    /// The issuer's authorization endpoint with this sign-in's parameters.
    pub authorization_url: Url,
    /// Keep it (a cookie) and hand it to [`LoginClient::finish`].
    pub pending: PendingLogin,
}

/// The query parameters the issuer sends the browser back with (RFC 6749 §4.1.2, RFC 9207).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Callback {
    /// The authorization code.
    #[serde(default)]
    pub code: Option<String>,
    /// The state sent.
    #[serde(default)]
    pub state: Option<String>,
    /// The error code, when the issuer refused (`access_denied`, say).
    #[serde(default)]
    pub error: Option<String>,
    /// The issuer's words about that error.
    #[serde(default)]
    pub error_description: Option<String>,
    /// The issuer's identifier (RFC 9207), when it sends one.
    #[serde(default)]
    pub iss: Option<String>,
}

/// Why a sign-in did not produce a verified user. `Display` is for the log: strings from the
/// issuer or the browser are quoted and cut.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoginError {
    /// The issuer named is not one of the verifier's.
    #[error("`{0}` is not a configured issuer")]
    UnknownIssuer(String),
    /// The discovery document or the token endpoint could not be used.
    #[error(transparent)]
    Fetch(#[from] FetchError),
    /// The callback's `state` is absent or not the pending sign-in's (a forged or stale
    /// callback).
    #[error("the callback's state is not the one this browser's sign-in sent")]
    StateMismatch,
    /// The callback's `iss` names another issuer (an authorization-server mix-up, RFC 9207).
    #[error("the callback names issuer {found}, not `{expected}`")]
    IssuerMismatch {
        /// The issuer the sign-in was sent to.
        expected: String,
        /// The callback's `iss`.
        found: Quoted,
    },
    /// The issuer answered with an error instead of a code (the person declined, say).
    #[error("the issuer refused the sign-in: {error} ({description})")]
    Denied {
        /// The error code.
        error: Quoted,
        /// Its description, if any.
        description: Quoted,
    },
    /// The callback has neither a code nor an error.
    #[error("the callback carries no authorization code")]
    NoCode,
    /// The token endpoint refused the code (used already, expired, another client's…).
    #[error("the token endpoint answered HTTP {status}: {error} ({description})")]
    CodeRefused {
        /// The HTTP status.
        status: u16,
        /// The OAuth error code.
        error: Quoted,
        /// Its description, if any.
        description: Quoted,
    },
    /// The token endpoint's answer is not a token response with an ID token.
    #[error("the token endpoint's answer has no usable ID token: {0}")]
    NoIdToken(String),
    /// The ID token does not check.
    #[error("the ID token is refused: {0}")]
    IdToken(#[from] Refusal),
}

#[derive(Deserialize)]
struct TokenResponse {
    id_token: Option<String>,
}

#[derive(Deserialize)]
struct TokenError {
    error: Option<String>,
    error_description: Option<String>,
}

/// 32 random bytes in URL-safe base64 (43 characters): state, nonce and PKCE verifier alike.
fn random_value() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// RFC 7636 §4.2: `BASE64URL(SHA256(verifier))`.
pub(crate) fn code_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

fn equal(expected: &str, presented: &str) -> bool {
    use subtle::ConstantTimeEq;
    expected.len() == presented.len() && bool::from(expected.as_bytes().ct_eq(presented.as_bytes()))
}

fn bounded(value: Option<&String>) -> Option<&str> {
    value
        .map(String::as_str)
        .filter(|value| !value.is_empty() && value.len() <= MAX_PARAMETER_BYTES)
}

impl LoginClient {
    /// Sign-ins at `verifier`'s issuers as `client`; ID tokens are verified by `verifier`.
    pub fn new(verifier: Verifier, client: ClientCredentials) -> Self {
        LoginClient {
            verifier,
            client,
            endpoints: Mutex::new(HashMap::new()),
        }
    }

    /// The issuers a person may sign in at.
    pub fn issuers(&self) -> &[IssuerUrl] {
        self.verifier.issuers()
    }

    /// The client credentials.
    pub fn client(&self) -> &ClientCredentials {
        &self.client
    }

    /// Starts a sign-in at `issuer`, whose answer comes back to `redirect_uri` (registered
    /// at the issuer for this client; https, or http on loopback).
    pub async fn begin(
        &self,
        issuer: &IssuerUrl,
        redirect_uri: &Url,
    ) -> Result<LoginStart, LoginError> {
        self.check_issuer(issuer)?;
        check_redirect(redirect_uri)?;
        let endpoints = self.endpoints(issuer).await?;
        let pending = PendingLogin {
            issuer: issuer.clone(),
            state: random_value(),
            nonce: random_value(),
            code_verifier: random_value(),
        };
        let mut url = endpoints.authorization;
        url.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", &self.client.id)
            .append_pair("redirect_uri", redirect_uri.as_str())
            .append_pair("scope", SCOPES)
            .append_pair("state", &pending.state)
            .append_pair("nonce", &pending.nonce)
            .append_pair("code_challenge", &code_challenge(&pending.code_verifier))
            .append_pair("code_challenge_method", "S256");
        Ok(LoginStart {
            authorization_url: url,
            pending,
        })
    }

    /// Finishes `pending` with the issuer's `callback` (to the same `redirect_uri`): the
    /// state, then the issuer's error if any, then the code exchange and the ID token.
    pub async fn finish(
        &self,
        pending: &PendingLogin,
        callback: &Callback,
        redirect_uri: &Url,
    ) -> Result<VerifiedToken, LoginError> {
        if !bounded(callback.state.as_ref()).is_some_and(|state| equal(&pending.state, state)) {
            return Err(LoginError::StateMismatch);
        }
        if let Some(iss) = &callback.iss
            && iss != pending.issuer.as_str()
        {
            return Err(LoginError::IssuerMismatch {
                expected: pending.issuer.as_str().to_owned(),
                found: Quoted::new(iss),
            });
        }
        if let Some(error) = &callback.error {
            return Err(LoginError::Denied {
                error: Quoted::new(error),
                description: Quoted::from(callback.error_description.as_deref()),
            });
        }
        let code = bounded(callback.code.as_ref()).ok_or(LoginError::NoCode)?;
        self.check_issuer(&pending.issuer)?;
        let endpoints = self.endpoints(&pending.issuer).await?;
        let mut form = vec![
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect_uri.as_str()),
            ("code_verifier", pending.code_verifier.as_str()),
        ];
        // A public client names itself in the body (RFC 6749 §4.1.3); a confidential one
        // authenticates with HTTP Basic (§2.3.1, the method every provider supports).
        let basic = match &self.client.secret {
            Some(secret) => Some((self.client.id.as_str(), secret.as_str())),
            None => {
                form.push(("client_id", self.client.id.as_str()));
                None
            }
        };
        let (status, body) = self
            .verifier
            .fetcher()
            .post_form(&endpoints.token, &form, basic)
            .await?;
        if !status.is_success() {
            let answer: Option<TokenError> = serde_json::from_slice(&body).ok();
            let (error, description) = answer.map_or((None, None), |answer| {
                (answer.error, answer.error_description)
            });
            return Err(LoginError::CodeRefused {
                status: status.as_u16(),
                error: Quoted::from(error.as_deref()),
                description: Quoted::from(description.as_deref()),
            });
        }
        let answer: TokenResponse = serde_json::from_slice(&body)
            .map_err(|error| LoginError::NoIdToken(error.to_string()))?;
        let id_token = answer
            .id_token
            .ok_or_else(|| LoginError::NoIdToken("no `id_token` member".to_owned()))?;
        Ok(self
            .verifier
            .verify_id_token(&id_token, &pending.issuer, &self.client.id, &pending.nonce)
            .await?)
    }

    fn check_issuer(&self, issuer: &IssuerUrl) -> Result<(), LoginError> {
        if self.verifier.issuers().contains(issuer) {
            Ok(())
        } else {
            Err(LoginError::UnknownIssuer(issuer.as_str().to_owned()))
        }
    }

    async fn endpoints(&self, issuer: &IssuerUrl) -> Result<LoginEndpoints, LoginError> {
        let now = SystemTime::now();
        if let Some((fetched, endpoints)) = self.endpoints.lock().get(issuer)
            && now
                .duration_since(*fetched)
                .is_ok_and(|age| age < ENDPOINTS_TTL)
        {
            return Ok(endpoints.clone());
        }
        let endpoints = discovery::login_endpoints(self.verifier.fetcher(), issuer).await?;
        self.endpoints
            .lock()
            .insert(issuer.clone(), (now, endpoints.clone()));
        Ok(endpoints)
    }

    /// `pending` as one cookie-safe string (`[A-Za-z0-9_.-]`), for [`decode`](Self::decode).
    pub fn encode(&self, pending: &PendingLogin) -> String {
        let index = self
            .issuers()
            .iter()
            .position(|issuer| issuer == &pending.issuer)
            .unwrap_or(usize::MAX);
        format!(
            "{index}.{}.{}.{}",
            pending.state, pending.nonce, pending.code_verifier
        )
    }

    /// The pending sign-in [`encode`](Self::encode) wrote, or `None` for anything else.
    pub fn decode(&self, text: &str) -> Option<PendingLogin> {
        let mut parts = text.split('.');
        let index: usize = parts.next()?.parse().ok()?;
        let issuer = self.issuers().get(index)?.clone();
        let mut value = || {
            parts
                .next()
                .filter(|part| part.len() == 43 && URL_SAFE_NO_PAD.decode(part).is_ok())
                .map(str::to_owned)
        };
        let pending = PendingLogin {
            issuer,
            state: value()?,
            nonce: value()?,
            code_verifier: value()?,
        };
        parts.next().is_none().then_some(pending)
    }
}

impl PendingLogin {
    /// The issuer the sign-in was sent to.
    pub fn issuer(&self) -> &IssuerUrl {
        &self.issuer
    }
}

fn check_redirect(redirect_uri: &Url) -> Result<(), LoginError> {
    check_transport(redirect_uri).map_err(|reason| {
        LoginError::Fetch(FetchError::Invalid {
            url: redirect_uri.to_string(),
            document: "redirect URI",
            reason: reason.to_owned(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_challenge_is_rfc_7636s_example() {
        // RFC 7636 Appendix B.
        assert_eq!(
            code_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn a_pending_login_survives_its_encoding_and_nothing_else_decodes() {
        let issuer = IssuerUrl::parse("https://idp.example.com").unwrap_or_else(|e| panic!("{e}"));
        let config =
            crate::VerifierConfig::new([issuer.clone()], "aud").unwrap_or_else(|e| panic!("{e}"));
        let verifier = Verifier::new(config).unwrap_or_else(|e| panic!("{e}"));
        let client = LoginClient::new(
            verifier,
            ClientCredentials::new("wiki", None).unwrap_or_else(|e| panic!("{e}")),
        );
        let pending = PendingLogin {
            issuer,
            state: random_value(),
            nonce: random_value(),
            code_verifier: random_value(),
        };
        let text = client.encode(&pending);
        assert_eq!(client.decode(&text), Some(pending));
        for bad in [
            "",
            "1.a.b.c",
            &text.replacen('0', "1", 1),
            &format!("{text}.x"),
            &text[..text.len() - 1],
        ] {
            assert_eq!(client.decode(bad), None, "{bad}");
        }
    }
}
