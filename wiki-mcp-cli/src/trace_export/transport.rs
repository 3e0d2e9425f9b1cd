//! How the exporter's requests reach the collector: a blocking HTTP client with TLS, configured
//! from the standard variables the OTLP exporter's own HTTP clients leave unread.
//!
//! The exporter's built-in clients cannot serve here: its reqwest client gets TLS only through
//! reqwest's aws-lc-rs provider (a cmake build the rest of the binary avoids), and none of them
//! reads `OTEL_EXPORTER_OTLP_CERTIFICATE` or the client certificate variables. ureq already
//! carries the model installer's HTTPS (rustls on ring), so the exporter uses it too.
//!
//! - An `https://` endpoint is verified against the system's trust store, or against the PEM
//!   certificates of `OTEL_EXPORTER_OTLP_CERTIFICATE` (or its `_TRACES_` form) alone when set,
//!   for a collector signed by a private authority.
//! - `OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE` and `OTEL_EXPORTER_OTLP_CLIENT_KEY` (or their
//!   `_TRACES_` forms), both or neither, are the certificate chain and key the exporter presents
//!   to a collector that asks for one (mutual TLS).
//! - `OTEL_EXPORTER_OTLP_TIMEOUT` (or its `_TRACES_` form, milliseconds, 10 s by default) bounds
//!   each request, as the exporter's own clients do.
//!
//! A file that cannot be read or holds no certificate (or key) stops the start, naming the
//! variable: a typo must not become a silent loss of every span.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use opentelemetry_http::{Bytes, HttpClient, HttpError, Request, Response};
use ureq::tls::{Certificate, ClientCert, PemItem, PrivateKey, RootCerts, TlsConfig};

use super::variable;

/// The request timeout when the environment sets none (the OTLP specification's default).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The most of a collector's response read (the exporter's own clients' bound, 4 MiB).
const MAX_RESPONSE_BYTES: u64 = 4 * 1024 * 1024;

/// The exporter's HTTP client (module doc).
pub(super) struct Transport {
    agent: ureq::Agent,
}

impl fmt::Debug for Transport {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("Transport")
    }
}

impl Transport {
    /// The client the standard variables describe (module doc).
    pub(super) fn from_environment() -> Result<Transport> {
        let roots = match variable(&[
            "OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE",
            "OTEL_EXPORTER_OTLP_CERTIFICATE",
        ]) {
            Some((name, path)) => RootCerts::new_with_certs(&certificates(&name, &path)?),
            None => RootCerts::PlatformVerifier,
        };
        let tls = TlsConfig::builder()
            .root_certs(roots)
            .client_cert(client_certificate()?)
            .build();
        let agent = ureq::Agent::config_builder()
            .tls_config(tls)
            .timeout_global(Some(timeout()))
            // The exporter reads the status itself (retrying 429 and 503, dropping 400).
            .http_status_as_error(false)
            .user_agent(concat!("wiki-mcp/", env!("CARGO_PKG_VERSION")))
            .build()
            .new_agent();
        Ok(Transport { agent })
    }

    fn send(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        let (parts, body) = request.into_parts();
        let response = self.agent.run(Request::from_parts(parts, body.as_ref()))?;
        let (parts, body) = response.into_parts();
        let body = body
            .into_with_config()
            .limit(MAX_RESPONSE_BYTES)
            .read_to_vec()?;
        Ok(Response::from_parts(parts, Bytes::from(body)))
    }
}

impl HttpClient for Transport {
    // The trait is `#[async_trait]`; this is its expansion, written out. The send blocks, as the
    // exporter's own blocking client does: the batch processor calls it on a thread of its own.
    fn send_bytes<'life0, 'async_trait>(
        &'life0 self,
        request: Request<Bytes>,
    ) -> Pin<Box<dyn Future<Output = Result<Response<Bytes>, HttpError>> + Send + 'async_trait>>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        Box::pin(async move { self.send(request) })
    }
}

/// `OTEL_EXPORTER_OTLP_TIMEOUT`'s milliseconds, or the default.
fn timeout() -> Duration {
    variable(&[
        "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT",
        "OTEL_EXPORTER_OTLP_TIMEOUT",
    ])
    .and_then(|(_, value)| value.parse().ok())
    .map_or(DEFAULT_TIMEOUT, Duration::from_millis)
}

/// The client certificate and key, when both variables name them.
fn client_certificate() -> Result<Option<ClientCert>> {
    let certificate = variable(&[
        "OTEL_EXPORTER_OTLP_TRACES_CLIENT_CERTIFICATE",
        "OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE",
    ]);
    let key = variable(&[
        "OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY",
        "OTEL_EXPORTER_OTLP_CLIENT_KEY",
    ]);
    match (certificate, key) {
        (None, None) => Ok(None),
        (Some((certificate_name, certificate_path)), Some((key_name, key_path))) => {
            let chain = certificates(&certificate_name, &certificate_path)?;
            let key = private_key(&key_name, &key_path)?;
            Ok(Some(ClientCert::new_with_certs(&chain, key)))
        }
        (Some((name, _)), None) | (None, Some((name, _))) => bail!(
            "{name} is set without its pair: set both OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE and \
             OTEL_EXPORTER_OTLP_CLIENT_KEY (PEM files) for mutual TLS, or neither"
        ),
    }
}

/// The PEM file a variable names.
fn pem(name: &str, path: &str) -> Result<Vec<PemItem<'static>>> {
    let text = std::fs::read(path).with_context(|| format!("cannot read {name}={path}"))?;
    ureq::tls::parse_pem(&text)
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("{name}={path} is not a PEM file"))
}

/// Every certificate of the PEM file a variable names, at least one.
fn certificates(name: &str, path: &str) -> Result<Vec<Certificate<'static>>> {
    let found: Vec<Certificate<'static>> = pem(name, path)?
        .into_iter()
        .filter_map(|item| match item {
            PemItem::Certificate(certificate) => Some(certificate),
            _ => None,
        })
        .collect();
    if found.is_empty() {
        bail!("{name}={path} holds no certificate: name a PEM file of CERTIFICATE blocks");
    }
    Ok(found)
}

/// The private key of the PEM file a variable names.
fn private_key(name: &str, path: &str) -> Result<PrivateKey<'static>> {
    pem(name, path)?
        .into_iter()
        .find_map(|item| match item {
            PemItem::PrivateKey(key) => Some(key),
            _ => None,
        })
        .with_context(|| {
            format!("{name}={path} holds no private key: name a PEM file of the client's key")
        })
}
