//! The axum application: routes, layers in the order they run, and the listener.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use sha2::{Digest, Sha256};
use tokio::net::{TcpListener, ToSocketAddrs};
use tokio_util::sync::CancellationToken;
use wiki_store::model::wiki::WikiId;

use super::MCP_PATH;
use super::admin;
use super::answers::Answers;
use super::body::BodyLimits;
use super::connections::{ConnectionLimits, serve_connections};
use super::directory::{Directory, Resolution};
use super::front;
use super::gate::{self, Gate};
use super::identity::Credentials;
use super::identity::mcp_endpoint;
use super::in_flight::InFlight;
use super::lifecycle::{DEFAULT_SHUTDOWN_TIMEOUT, Lifecycle};
use super::limits::{RateClock, RateKey, RateLimit, RateLimiter};
use super::list_changes::{ListChanges, ListenLimits};
use super::metrics;
use super::oauth::{METADATA_SUFFIX, metadata};
use super::pages;
use super::readiness::Readiness;
use super::refusal::Refusal;
use super::request_id::RequestIds;
use super::rmcp_endpoint::RmcpEndpoint;
use super::url::BaseUrl;
use super::warnings::Warnings;
use crate::server::{Manager, McpHandler, RequestId};

/// How the HTTP endpoint is exposed.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Authorization servers advertised in the RFC 9728 metadata, besides the OIDC issuers of
    /// the directory (`Directory::with_oidc`), which are always listed. Non-empty: requests
    /// without credentials get 401 with `WWW-Authenticate: Bearer resource_metadata=…` instead
    /// of running as the guest.
    pub authorization_servers: Vec<String>,
    /// The largest request body accepted (413 beyond), counted while streaming.
    pub max_body_bytes: usize,
    /// Open connections (total, per address) and how long a request's head and body may take.
    pub connections: ConnectionLimits,
    /// The per-caller rate limit of MCP requests; `None` turns it off (benchmarks).
    pub rate_limit: Option<RateLimit>,
    /// The per-address rate limit of the signed link pages (buckets apart from the MCP ones:
    /// opening a link costs a render, an agent's call does not); `None` turns it off.
    pub page_rate_limit: Option<RateLimit>,
    /// A second address serving only `GET /metrics`, without a token: for a Prometheus server
    /// on a private network (keep it off the public one). `None`: the metrics are served on the
    /// main address alone, to a farm administrator's token.
    pub metrics_listen: Option<SocketAddr>,
    /// After the shutdown token fires: how long requests in flight may take to finish (new
    /// ones are answered 503 meanwhile) before their connections are dropped and their calls
    /// cancelled (`lifecycle.rs`).
    pub shutdown_timeout: Duration,
    /// Answer plain stateless `tools/call` requests directly (`http/direct.rs`) instead of
    /// through rmcp's per-request service. The answer is the same; `false` sends every request
    /// through rmcp (for comparisons).
    pub direct_tool_calls: bool,
    /// How many tool-list change streams may be open, per caller and in all.
    pub listen_limits: ListenLimits,
    /// What `rate_limit` reads the time from: the monotonic clock, unless a test moves one.
    pub rate_clock: RateClock,
}

impl Default for HttpOptions {
    /// No authorization server, 16 MiB bodies (a 10 MiB attachment in base64
    /// fits), the default connection limits and rate limit, 30 s to finish at shutdown, direct
    /// tool calls.
    fn default() -> Self {
        HttpOptions {
            authorization_servers: Vec::new(),
            max_body_bytes: 16 * 1024 * 1024,
            connections: ConnectionLimits::default(),
            rate_limit: Some(RateLimit::default()),
            page_rate_limit: Some(RateLimit::pages()),
            metrics_listen: None,
            shutdown_timeout: DEFAULT_SHUTDOWN_TIMEOUT,
            direct_tool_calls: true,
            listen_limits: ListenLimits::default(),
            rate_clock: RateClock::default(),
        }
    }
}

/// What every middleware and handler of the application shares.
pub(crate) struct Shared {
    pub(crate) options: HttpOptions,
    /// The bound address's URL, for when the settings name no public URL.
    local_url: BaseUrl,
    directory: Arc<Directory>,
    limiter: Option<RateLimiter>,
    /// This replica's calls by credential and request id, for `notifications/cancelled`.
    pub(crate) in_flight: Arc<InFlight>,
    /// This replica's questions waiting for a client's POSTed answer.
    pub(crate) answers: Arc<Answers>,
    /// The latest readiness probe (`/readyz`).
    pub(crate) readiness: Readiness,
    /// The budget of WARN lines about refused requests, shared with the front door.
    pub(crate) warnings: Arc<Warnings>,
    /// The open tool-list change streams.
    pub(crate) list_changes: Arc<ListChanges>,
}

/// The first 8 hex digits of the SHA-256 of `token`: what a log may say of a refused token.
fn token_digest_prefix(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest
        .iter()
        .take(4)
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

impl Shared {
    /// The server manager every wiki's server comes from.
    pub(crate) fn manager(&self) -> &Manager {
        self.directory.manager()
    }

    /// Where clients reach this server: the settings' public URL
    /// ([`ServerSettings::public_url`](crate::ServerSettings::public_url)), else the bound
    /// address.
    pub(crate) fn base_url(&self) -> &BaseUrl {
        self.manager()
            .settings()
            .public_url
            .as_ref()
            .unwrap_or(&self.local_url)
    }

    /// The directory: token and OIDC resolution beside the manager.
    pub(crate) fn directory(&self) -> &Directory {
        &self.directory
    }

    /// The directory's answers for one request. A store failure is a 503 (with `Retry-After`
    /// when it is transient: the database is down or restarting), logged, never shown.
    pub(crate) async fn resolve(
        &self,
        wiki: WikiId,
        token: Option<String>,
    ) -> Result<Resolution, Refusal> {
        self.directory.resolve(&wiki, token).await.map_err(|error| {
            tracing::error!(wiki = %wiki, %error, source = ?std::error::Error::source(&error), "resolving a request's wiki and credentials failed");
            Refusal::of_store(&error)
        })
    }

    /// Logs a refused credential at WARN (bounded per second: [`Warnings`]) with the client's
    /// address, the request's id and the first hex digits of the token's SHA-256, never the
    /// token: enough to tell one guessing client from a client with a revoked token, nothing to
    /// replay.
    pub(crate) fn refused_token(
        &self,
        presented: &Credentials,
        address: IpAddr,
        request_id: Option<&RequestId>,
        wiki: Option<&WikiId>,
    ) {
        self.warnings.warn(|| {
            let digest = match presented {
                Credentials::Bearer(token) => token_digest_prefix(token),
                Credentials::None | Credentials::Unusable => "-".to_owned(),
            };
            let wiki = wiki.map_or("-", WikiId::as_str);
            let request_id = request_id.map_or("-", RequestId::as_str);
            tracing::warn!(client = %address, request_id, wiki, token_sha256 = %digest, "refused a token");
        });
    }

    /// Takes one request from `key`'s bucket, or the 429 to answer.
    pub(crate) fn throttle(&self, key: RateKey) -> Option<Refusal> {
        let limiter = self.limiter.as_ref()?;
        limiter.acquire(key).err().map(Refusal::rate_limited)
    }
}

/// The HTTP server, bound and ready to serve.
#[derive(Debug)]
pub struct HttpServer {
    listener: TcpListener,
    metrics_listener: Option<TcpListener>,
    options: HttpOptions,
}

impl HttpServer {
    /// Binds `addr` (port 0 picks a free port).
    pub async fn bind(addr: impl ToSocketAddrs, options: HttpOptions) -> io::Result<Self> {
        let listener = TcpListener::bind(addr).await?;
        let metrics_listener = match options.metrics_listen {
            Some(address) => Some(TcpListener::bind(address).await?),
            None => None,
        };
        Ok(HttpServer {
            listener,
            metrics_listener,
            options,
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The metrics address actually bound ([`HttpOptions::metrics_listen`]), if any.
    pub fn metrics_addr(&self) -> io::Result<Option<SocketAddr>> {
        self.metrics_listener
            .as_ref()
            .map(TcpListener::local_addr)
            .transpose()
    }

    /// `http://` and the address actually bound: the base URL of links and client
    /// configurations when no public URL is set
    /// ([`ServerSettings::with_public_url`](crate::ServerSettings::with_public_url)).
    pub fn local_url(&self) -> io::Result<BaseUrl> {
        Ok(BaseUrl::for_address(self.listener.local_addr()?))
    }

    /// Serves until `shutdown` is cancelled, then stops accepting, answers new requests 503,
    /// waits for in-flight requests until [`HttpOptions::shutdown_timeout`] and cancels those
    /// still running (`lifecycle.rs`), and writes the token uses not yet on record. Meanwhile token uses are written about once a minute
    /// ([`Directory::flush_token_uses`]).
    ///
    /// Every MCP request is answered by an [`McpHandler`] over the directory's manager (rmcp
    /// clones it per request: an `Arc` bump), or for a plain `tools/call` by the same code
    /// directly (`http/direct.rs`).
    pub async fn serve(
        self,
        directory: Arc<Directory>,
        shutdown: CancellationToken,
    ) -> io::Result<()> {
        let list_changes = ListChanges::new(
            Arc::clone(&directory),
            self.options.listen_limits,
            shutdown.child_token(),
        );
        let handler =
            McpHandler::announcing(Arc::clone(directory.manager()), Arc::clone(&list_changes));
        // A child: stopping the flusher after an accept error must not cancel the caller's token.
        let stop_flushing = shutdown.child_token();
        let flusher = tokio::spawn({
            let directory = Arc::clone(&directory);
            let stop = stop_flushing.clone();
            async move { directory.flush_token_uses_until(stop).await }
        });
        let mut options = self.options.clone();
        if let Some(oidc) = directory.oidc() {
            // The issuers are authorization servers of this resource (RFC 9728 metadata), and
            // their keys are fetched now rather than on the first token.
            for issuer in oidc.verifier().issuers() {
                if !options
                    .authorization_servers
                    .iter()
                    .any(|s| s == issuer.as_str())
                {
                    options
                        .authorization_servers
                        .push(issuer.as_str().to_owned());
                }
            }
            let verifier = oidc.verifier().clone();
            tokio::spawn(async move { verifier.prefetch().await });
        }
        let lifecycle = Arc::new(Lifecycle::default());
        let draining = tokio::spawn({
            let lifecycle = Arc::clone(&lifecycle);
            let shutdown = shutdown.clone();
            let timeout = self.options.shutdown_timeout;
            async move {
                shutdown.cancelled().await;
                lifecycle.drain(timeout).await;
            }
        });
        let app = application(
            Shared {
                options,
                local_url: self.local_url()?,
                directory: Arc::clone(&directory),
                limiter: self.options.rate_limit.map(|limit| {
                    RateLimiter::new(limit).with_clock(self.options.rate_clock.clone())
                }),
                in_flight: Arc::default(),
                answers: Arc::default(),
                readiness: Readiness::default(),
                warnings: Arc::default(),
                list_changes,
            },
            handler,
            &lifecycle,
        );
        let metrics = Arc::clone(directory.manager().metrics());
        let open = metrics.open_connections.clone();
        let metrics_served = self.metrics_listener.map(|listener| {
            tokio::spawn(serve_connections(
                listener,
                metrics::open_routes(Arc::clone(&metrics)),
                self.options.connections,
                open.clone(),
                shutdown.clone(),
                Arc::clone(&lifecycle),
            ))
        });
        let served = serve_connections(
            self.listener,
            app,
            self.options.connections,
            open,
            shutdown.clone(),
            Arc::clone(&lifecycle),
        )
        .await;
        // Returned on an accept error without a shutdown: nothing left to drain.
        draining.abort();
        if let Some(metrics_served) = metrics_served {
            // It stops with the same token; an accept error there is logged, not fatal.
            match metrics_served.await {
                Ok(Ok(())) => {}
                Ok(Err(error)) => tracing::warn!(%error, "the metrics listener failed"),
                Err(error) => tracing::warn!(%error, "the metrics listener did not finish"),
            }
        }
        // `serve` returns on an accept error too: stop the periodic flush either way, let a
        // flush it started finish, then record the uses of the last requests.
        stop_flushing.cancel();
        if let Err(error) = flusher.await {
            tracing::warn!(%error, "the token-use flusher did not finish");
        }
        directory.flush_token_uses().await;
        served
    }
}

/// The routes and their layers. The front door (`gate.rs`: malformed heads 400, Host/Origin
/// 403, the body read within its cap and deadline) wraps everything; the identity step and the
/// direct `tools/call` answer wrap only the MCP endpoint.
fn application(shared: Shared, handler: McpHandler, lifecycle: &Arc<Lifecycle>) -> Router {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_max_request_body_bytes(shared.options.max_body_bytes)
        // rmcp's own tasks stop at the shutdown deadline, with the connections: until then
        // its calls finish like the direct ones.
        .with_cancellation_token(lifecycle.abort.child_token())
        // Checked for every route by the front door (`gate.rs`), with the public URL taken
        // into account.
        .disable_allowed_hosts()
        .disable_allowed_origins();
    let mcp = RmcpEndpoint::new(StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    ));
    let links = pages::routes(
        Arc::clone(shared.directory.manager()),
        shared.options.page_rate_limit,
        shared.options.authorization_servers.is_empty(),
    );
    let gate = Arc::new(Gate {
        manager: Arc::clone(shared.directory.manager()),
        warnings: Arc::clone(&shared.warnings),
        request_ids: RequestIds::default(),
        lifecycle: Arc::clone(lifecycle),
        body: BodyLimits {
            max_bytes: shared.options.max_body_bytes,
            timeout: shared.options.connections.body_timeout,
        },
    });
    let shared = Arc::new(shared);
    let metadata_path = format!("{MCP_PATH}{METADATA_SUFFIX}");
    // RFC 9728 §3.1 also places the document at the host's well-known path, suffixed by the
    // resource's path.
    let inserted_metadata_path = format!("{METADATA_SUFFIX}{MCP_PATH}");
    Router::new()
        .route_service(MCP_PATH, mcp)
        // The caller, then a plain `tools/call` answered directly or the request handed to rmcp.
        .route_layer(axum::middleware::from_fn_with_state(
            Arc::clone(&shared),
            mcp_endpoint,
        ))
        .route(&metadata_path, get(metadata))
        .route(&inserted_metadata_path, get(metadata))
        .merge(links)
        .merge(admin::routes(Arc::clone(&shared)))
        .merge(front::routes())
        .merge(metrics::routes())
        .fallback(|| async { Refusal::NotFound })
        .with_state(shared)
        .layer(axum::middleware::from_fn_with_state(gate, gate::admit))
}
