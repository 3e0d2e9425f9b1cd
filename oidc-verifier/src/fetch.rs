//! Bounded GETs of the documents an issuer publishes (discovery, JWKS).
//!
//! Every fetch is bounded in time (connect and total timeouts) and memory (the body is read in
//! chunks and refused past [`FetchLimits::max_document_bytes`], whatever `Content-Length`
//! says). Redirects are followed at most three times and only to URLs passing the same
//! https-or-loopback rule as the issuer, so a redirect cannot downgrade a fetch to plain http.
//!
//! TLS is rustls with the *ring* provider, set on this client only (no process-wide default is
//! installed), verifying certificates against the system's roots (rustls-platform-verifier,
//! which on Linux honours `SSL_CERT_FILE`/`SSL_CERT_DIR` for a private CA).

use std::sync::Arc;

use reqwest::{Client, Url, redirect};
use serde::de::DeserializeOwned;

use crate::config::FetchLimits;
use crate::error::{ConfigError, FetchError};
use crate::issuer::check_transport;

/// Redirects followed per fetch.
const MAX_REDIRECTS: usize = 3;

/// The HTTP client all issuers share.
#[derive(Debug, Clone)]
pub(crate) struct Fetcher {
    client: Client,
    max_bytes: usize,
}

impl Fetcher {
    /// A client within `limits`. `https` says whether any configured issuer needs TLS: only
    /// then are the system's CA certificates loaded (and their absence an error), so a
    /// loopback-only configuration works on a host without them.
    pub(crate) fn new(limits: &FetchLimits, https: bool) -> Result<Self, ConfigError> {
        let client = Client::builder()
            .connect_timeout(limits.connect_timeout)
            .timeout(limits.timeout)
            .redirect(redirect::Policy::custom(|attempt| {
                if attempt.previous().len() > MAX_REDIRECTS {
                    attempt.error("too many redirects")
                } else if let Err(reason) = check_transport(attempt.url()) {
                    attempt.error(format!("refused redirect: {reason}"))
                } else {
                    attempt.follow()
                }
            }))
            .user_agent(concat!("oidc-verifier/", env!("CARGO_PKG_VERSION")))
            .tls_backend_preconfigured(tls_config(https)?)
            .build()
            .map_err(|e| ConfigError::Tls(error_chain(&e)))?;
        Ok(Fetcher {
            client,
            max_bytes: limits.max_document_bytes,
        })
    }

    /// GETs `url` and parses its body as `T`; `document` names it in errors.
    pub(crate) async fn get_json<T: DeserializeOwned>(
        &self,
        url: &Url,
        document: &'static str,
    ) -> Result<T, FetchError> {
        let body = self.get(url).await?;
        serde_json::from_slice(&body).map_err(|e| FetchError::Invalid {
            url: url.to_string(),
            document,
            reason: e.to_string(),
        })
    }

    async fn get(&self, url: &Url) -> Result<Vec<u8>, FetchError> {
        let unreachable = |e: reqwest::Error| FetchError::Unreachable {
            url: url.to_string(),
            reason: error_chain(&e.without_url()),
        };
        let too_large = || FetchError::TooLarge {
            url: url.to_string(),
            max: self.max_bytes,
        };
        let mut response = self
            .client
            .get(url.clone())
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(unreachable)?;
        let status = response.status();
        if status != reqwest::StatusCode::OK {
            return Err(FetchError::Status {
                url: url.to_string(),
                status: status.as_u16(),
            });
        }
        if response
            .content_length()
            .is_some_and(|length| length > self.max_bytes as u64)
        {
            return Err(too_large());
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(unreachable)? {
            if body.len() + chunk.len() > self.max_bytes {
                return Err(too_large());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }
}

/// The client's TLS: rustls over *ring*, TLS 1.2 and 1.3, the system's roots when `https`.
fn tls_config(https: bool) -> Result<rustls::ClientConfig, ConfigError> {
    use rustls_platform_verifier::BuilderVerifierExt;

    let tls = |e: rustls::Error| ConfigError::Tls(e.to_string());
    let builder = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(tls)?;
    let config = if https {
        builder.with_platform_verifier().map_err(tls)?
    } else {
        // No https URL can be reached from a loopback-only configuration except through a
        // redirect, and with no root every such handshake fails.
        builder.with_root_certificates(rustls::RootCertStore::empty())
    };
    Ok(config.with_no_client_auth())
}

/// `error` and its causes, outermost first: reqwest's own message ("error sending request")
/// says little, the innermost cause ("Connection refused") says what happened.
fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}
