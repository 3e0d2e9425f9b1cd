//! Bounded requests to an issuer: GETs of the documents it publishes (discovery, JWKS), and
//! the form POST of an authorization-code exchange at its token endpoint.
//!
//! Every fetch is bounded in time (a connect timeout, and one deadline over the whole request,
//! body included) and memory (the body is read through a limit and refused past
//! [`FetchLimits::max_document_bytes`], whatever `Content-Length` says). Redirects are not
//! followed: providers serve both documents directly at the URLs they name, and a redirect
//! could only lead somewhere the configuration did not.
//!
//! TLS is rustls with the *ring* provider, set on this client only (no process-wide default is
//! installed), verifying certificates against the system's roots (rustls-platform-verifier,
//! which on Linux honours `SSL_CERT_FILE`/`SSL_CERT_DIR` for a private CA).
//!
//! The client is hyper's, not reqwest's: reqwest 0.13 can only name aws-lc-rs as its rustls
//! provider, and its provider-less feature would, unified into every crate of a build, make
//! each `reqwest::Client::new()` elsewhere panic for want of a provider.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, USER_AGENT};
use http::{Request, StatusCode, Uri};
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::Bytes;
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde::de::DeserializeOwned;
use url::Url;

use crate::config::FetchLimits;
use crate::error::{ConfigError, FetchError};

const AGENT: &str = concat!("oidc-verifier/", env!("CARGO_PKG_VERSION"));

/// The HTTP client all issuers share.
#[derive(Debug, Clone)]
pub(crate) struct Fetcher {
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    timeout: Duration,
    max_bytes: usize,
}

impl Fetcher {
    /// A client within `limits`. `https` says whether any configured issuer needs TLS: only
    /// then are the system's CA certificates loaded (and their absence an error), so a
    /// loopback-only configuration works on a host without them.
    pub(crate) fn new(limits: &FetchLimits, https: bool) -> Result<Self, ConfigError> {
        let mut tcp = HttpConnector::new();
        tcp.enforce_http(false);
        tcp.set_connect_timeout(Some(limits.connect_timeout));
        let connector = HttpsConnectorBuilder::new()
            .with_tls_config(tls_config(https)?)
            // Plain http is reached only for URLs that passed `issuer::check_transport`.
            .https_or_http()
            .enable_http1()
            .wrap_connector(tcp);
        Ok(Fetcher {
            client: Client::builder(TokioExecutor::new()).build(connector),
            timeout: limits.timeout,
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

    async fn get(&self, url: &Url) -> Result<Bytes, FetchError> {
        let request = Request::get(request_uri(url)?)
            .header(ACCEPT, "application/json")
            .header(USER_AGENT, AGENT)
            .body(Full::default())
            .map_err(|e| unreachable(url, e.to_string()))?;
        match self.send(url, request).await? {
            (StatusCode::OK, body) => Ok(body),
            (status, _) => Err(FetchError::Status {
                url: url.to_string(),
                status: status.as_u16(),
            }),
        }
    }

    /// POSTs `form` (`application/x-www-form-urlencoded`) to `url`, with HTTP Basic
    /// credentials when given, and returns the status and the body whatever the status (an
    /// OAuth token endpoint answers its errors as JSON with 400 or 401).
    pub(crate) async fn post_form(
        &self,
        url: &Url,
        form: &[(&str, &str)],
        basic: Option<(&str, &str)>,
    ) -> Result<(StatusCode, Bytes), FetchError> {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish();
        let mut request = Request::post(request_uri(url)?)
            .header(ACCEPT, "application/json")
            .header(USER_AGENT, AGENT)
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded");
        if let Some((user, password)) = basic {
            // RFC 6749 §2.3.1: both parts form-urlencoded before the Basic encoding.
            let encode = |text: &str| {
                url::form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>()
            };
            let credentials = STANDARD.encode(format!("{}:{}", encode(user), encode(password)));
            request = request.header(AUTHORIZATION, format!("Basic {credentials}"));
        }
        let request = request
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| unreachable(url, e.to_string()))?;
        self.send(url, request).await
    }

    /// Sends `request` (for `url`) and reads the whole answer, within the time and size bounds.
    async fn send(
        &self,
        url: &Url,
        request: Request<Full<Bytes>>,
    ) -> Result<(StatusCode, Bytes), FetchError> {
        let exchange = async {
            let response = self
                .client
                .request(request)
                .await
                .map_err(|e| unreachable(url, error_chain(&e)))?;
            let status = response.status();
            let too_large = || FetchError::TooLarge {
                url: url.to_string(),
                max: self.max_bytes,
            };
            let announced = response
                .headers()
                .get(http::header::CONTENT_LENGTH)
                .and_then(|value| value.to_str().ok())
                .and_then(|value| value.parse::<u64>().ok());
            if announced.is_some_and(|length| length > self.max_bytes as u64) {
                return Err(too_large());
            }
            let body = Limited::new(response.into_body(), self.max_bytes)
                .collect()
                .await
                .map_err(|e| {
                    if e.downcast_ref::<LengthLimitError>().is_some() {
                        too_large()
                    } else {
                        unreachable(url, error_chain(&*e))
                    }
                })?;
            Ok((status, body.to_bytes()))
        };
        tokio::time::timeout(self.timeout, exchange)
            .await
            .map_err(|_| {
                unreachable(
                    url,
                    format!("no complete answer within {} ms", self.timeout.as_millis()),
                )
            })?
    }
}

fn unreachable(url: &Url, reason: String) -> FetchError {
    FetchError::Unreachable {
        url: url.to_string(),
        reason,
    }
}

fn request_uri(url: &Url) -> Result<Uri, FetchError> {
    url.as_str()
        .parse()
        .map_err(|_| unreachable(url, "not a URI an HTTP client can request".to_owned()))
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
        // A loopback-only configuration fetches no https URL; with no root, any attempt fails.
        builder.with_root_certificates(rustls::RootCertStore::empty())
    };
    Ok(config.with_no_client_auth())
}

/// `error` and its causes, outermost first: a client's own message ("client error
/// (Connect)") says little, the innermost cause ("Connection refused") says what happened.
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
