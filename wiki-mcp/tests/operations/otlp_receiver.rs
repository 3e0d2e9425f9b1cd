//! A small OTLP/HTTP receiver on a loopback port, over plain HTTP or over TLS with the test
//! certificates of `tests/fixtures/otlp-tls` (made by its `make.sh`): it keeps every body posted
//! to `/v1/traces` and, over TLS, every handshake that failed.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// Who may connect to the receiver.
pub(crate) enum Security {
    /// Plain HTTP.
    Plain,
    /// TLS with the receiver's test certificate.
    Tls,
    /// TLS that also asks for a client certificate signed by the test authority.
    MutualTls,
}

/// A running receiver; dropping it stops it.
pub(crate) struct Receiver {
    pub(crate) endpoint: String,
    bodies: Arc<Mutex<Vec<Bytes>>>,
    failed_handshakes: Arc<Mutex<Vec<String>>>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

/// A file of the test certificates.
pub(crate) fn certificate_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/otlp-tls")
        .join(name)
}

/// A TCP listener whose connections are TLS, each handshake done as it is accepted.
struct TlsListener {
    tcp: tokio::net::TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
    failed_handshakes: Arc<Mutex<Vec<String>>>,
}

impl axum::serve::Listener for TlsListener {
    type Io = tokio_rustls::server::TlsStream<tokio::net::TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let Ok((stream, address)) = self.tcp.accept().await else {
                continue;
            };
            match self.acceptor.accept(stream).await {
                Ok(tls) => return (tls, address),
                Err(error) => self
                    .failed_handshakes
                    .lock()
                    .unwrap()
                    .push(error.to_string()),
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.tcp.local_addr()
    }
}

/// The receiver's TLS configuration, on the ring provider the binary uses.
fn tls_config(security: &Security) -> rustls::ServerConfig {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let chain: Vec<CertificateDer<'static>> =
        CertificateDer::pem_file_iter(certificate_file("server.pem"))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
    let key = PrivateKeyDer::from_pem_file(certificate_file("server.key")).unwrap();
    let builder = rustls::ServerConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .unwrap();
    let builder = match security {
        Security::MutualTls => {
            let mut roots = rustls::RootCertStore::empty();
            for authority in CertificateDer::pem_file_iter(certificate_file("ca.pem")).unwrap() {
                roots.add(authority.unwrap()).unwrap();
            }
            let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
                Arc::new(roots),
                provider,
            )
            .build()
            .unwrap();
            builder.with_client_cert_verifier(verifier)
        }
        _ => builder.with_no_client_auth(),
    };
    builder.with_single_cert(chain, key).unwrap()
}

impl Receiver {
    pub(crate) fn start(security: Security) -> Receiver {
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let failed_handshakes = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&bodies);
        let failures = Arc::clone(&failed_handshakes);
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let scheme = match security {
            Security::Plain => "http",
            Security::Tls | Security::MutualTls => "https",
        };
        let endpoint = format!("{scheme}://{}", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let app = axum::Router::new().route(
                    "/v1/traces",
                    axum::routing::post(move |body: Bytes| async move {
                        kept.lock().unwrap().push(body);
                        // An empty ExportTraceServiceResponse: everything accepted.
                        ([("content-type", "application/x-protobuf")], Bytes::new())
                    }),
                );
                let tcp = tokio::net::TcpListener::from_std(listener).unwrap();
                let stopped = async {
                    let _ = stopped.await;
                };
                match security {
                    Security::Plain => axum::serve(tcp, app)
                        .with_graceful_shutdown(stopped)
                        .await
                        .unwrap(),
                    Security::Tls | Security::MutualTls => {
                        let listener = TlsListener {
                            tcp,
                            acceptor: tokio_rustls::TlsAcceptor::from(Arc::new(tls_config(
                                &security,
                            ))),
                            failed_handshakes: failures,
                        };
                        axum::serve(listener, app)
                            .with_graceful_shutdown(stopped)
                            .await
                            .unwrap()
                    }
                }
            });
        });
        Receiver {
            endpoint,
            bodies,
            failed_handshakes,
            _stop: stop,
        }
    }

    /// Every span received so far.
    pub(crate) fn spans(&self) -> Vec<Span> {
        self.bodies
            .lock()
            .unwrap()
            .iter()
            .flat_map(|body| {
                ExportTraceServiceRequest::decode(body.as_ref())
                    .unwrap_or_else(|error| panic!("not an OTLP trace export ({error})"))
                    .resource_spans
            })
            .flat_map(|resource| resource.scope_spans)
            .flat_map(|scope| scope.spans)
            .collect()
    }

    /// Whether `text` appears anywhere in what was received.
    pub(crate) fn received_text(&self, text: &str) -> bool {
        self.bodies.lock().unwrap().iter().any(|body| {
            body.windows(text.len())
                .any(|window| window == text.as_bytes())
        })
    }

    /// How many bodies were received.
    pub(crate) fn received(&self) -> usize {
        self.bodies.lock().unwrap().len()
    }

    /// Why each failed TLS handshake failed, so far.
    pub(crate) fn failed_handshakes(&self) -> Vec<String> {
        self.failed_handshakes.lock().unwrap().clone()
    }
}
