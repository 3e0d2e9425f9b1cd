//! An issuer on loopback: discovery and JWKS, with switches for the failures a verifier must
//! survive, and an authorization server (`login.rs`) that signs a chosen user in.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use parking_lot::Mutex;
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::keys::TestKey;
use super::login::{self, LoginState};
use super::tokens::TokenBuilder;
use crate::issuer::IssuerUrl;

/// The path the issuer lives under, as a Keycloak realm does (so discovery URLs with a path are
/// what every test exercises).
const REALM_PATH: &str = "/realms/test";

/// A running test issuer. Dropping it leaves the server running until the runtime ends; call
/// [`stop`](Self::stop) to refuse connections from then on.
#[derive(Debug)]
pub struct TestIssuer {
    issuer: IssuerUrl,
    address: SocketAddr,
    state: Arc<IssuerState>,
    shutdown: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<()>>,
}

#[derive(Debug)]
pub(crate) struct IssuerState {
    pub(crate) issuer: String,
    jwks_uri: String,
    keys: Mutex<Vec<Value>>,
    pub(crate) available: AtomicBool,
    /// Clients, codes and the user signed in next.
    pub(crate) login: Mutex<LoginState>,
    pub(crate) token_requests: AtomicUsize,
    /// What discovery says `issuer` is, when it lies.
    stated_issuer: Mutex<Option<String>>,
    /// What discovery says `jwks_uri` is, when it points elsewhere.
    stated_jwks_uri: Mutex<Option<String>>,
    /// A raw JWKS body served instead of the published keys.
    jwks_body: Mutex<Option<String>>,
    /// Where discovery redirects instead of answering.
    discovery_redirect: Mutex<Option<String>>,
    /// How long every answer is held back.
    delay: Mutex<Duration>,
    discovery_requests: AtomicUsize,
    jwks_requests: AtomicUsize,
}

impl TestIssuer {
    /// Serves discovery and a JWKS of `keys` on `127.0.0.1:0`, and the authorization and token
    /// endpoints, whose ID tokens the first of `keys` signs.
    pub async fn start(keys: &[&TestKey]) -> std::io::Result<Self> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let address = listener.local_addr()?;
        let issuer_text = format!("http://{address}{REALM_PATH}");
        let issuer =
            IssuerUrl::parse(&issuer_text).map_err(|e| std::io::Error::other(e.to_string()))?;
        let state = Arc::new(IssuerState {
            jwks_uri: format!("{issuer_text}/protocol/openid-connect/certs"),
            issuer: issuer_text,
            keys: Mutex::new(keys.iter().map(|key| key.jwk()).collect()),
            available: AtomicBool::new(true),
            login: Mutex::new(LoginState {
                signing_key: keys.first().map(|key| (*key).clone()),
                ..LoginState::default()
            }),
            token_requests: AtomicUsize::new(0),
            stated_issuer: Mutex::new(None),
            stated_jwks_uri: Mutex::new(None),
            jwks_body: Mutex::new(None),
            discovery_redirect: Mutex::new(None),
            delay: Mutex::new(Duration::ZERO),
            discovery_requests: AtomicUsize::new(0),
            jwks_requests: AtomicUsize::new(0),
        });
        let router = Router::new()
            .route(
                &format!("{REALM_PATH}/.well-known/openid-configuration"),
                get(discovery),
            )
            .route(
                &format!("{REALM_PATH}/protocol/openid-connect/certs"),
                get(jwks),
            )
            .route(
                &format!("{REALM_PATH}/protocol/openid-connect/auth"),
                get(login::authorize).post(login::authorize_form),
            )
            .route(
                &format!("{REALM_PATH}/protocol/openid-connect/token"),
                post(login::token),
            )
            .with_state(Arc::clone(&state));
        let (shutdown, stopped) = oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            let serving = axum::serve(listener, router).with_graceful_shutdown(async {
                stopped.await.ok();
            });
            if let Err(error) = serving.await {
                tracing::warn!(%error, "test issuer stopped with an error");
            }
        });
        Ok(TestIssuer {
            issuer,
            address,
            state,
            shutdown: Some(shutdown),
            server: Some(server),
        })
    }

    /// The issuer identifier (`http://127.0.0.1:<port>/realms/test`).
    pub fn issuer(&self) -> &IssuerUrl {
        &self.issuer
    }

    /// The address served on.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// A token of this issuer for `audience` and `subject`, issued at `now`.
    pub fn token(&self, audience: &str, subject: &str, now: SystemTime) -> TokenBuilder {
        TokenBuilder::new(self.issuer.as_str(), audience, subject, now)
    }

    /// Registers client `id` (confidential with `secret`, public without) whose one redirect
    /// URI is `redirect_uri` (a loopback IP literal without a port: that URI on any port, as
    /// RFC 8252 §7.3 has it).
    pub fn register_client(&self, id: &str, secret: Option<&str>, redirect_uri: &str) {
        self.state.login.lock().register(id, secret, redirect_uri);
    }

    /// Makes the authorization endpoint sign `user` in without asking (`None`: it shows a
    /// form asking for the user name, as a browser test wants).
    pub fn sign_in_as(&self, user: Option<&str>) {
        self.state.login.lock().sign_in_as = user.map(str::to_owned);
    }

    /// Sets claim `name` on every ID token from now on, over the true value (a forgery: a
    /// wrong `nonce`, another `aud`…).
    pub fn override_id_token_claim(&self, name: &str, value: impl Into<Value>) {
        self.state
            .login
            .lock()
            .id_token_overrides
            .insert(name.to_owned(), value.into());
    }

    /// Token requests answered (refusals included).
    pub fn token_requests(&self) -> usize {
        self.state.token_requests.load(Ordering::SeqCst)
    }

    /// Publishes exactly `keys` from now on (a rotation).
    pub fn publish(&self, keys: &[&TestKey]) {
        self.publish_jwks(keys.iter().map(|key| key.jwk()).collect());
    }

    /// Publishes these JWKs verbatim (keys a test shaped itself).
    pub fn publish_jwks(&self, jwks: Vec<Value>) {
        *self.state.keys.lock() = jwks;
    }

    /// Up (the default) or down: while down, every request is answered 503.
    pub fn set_available(&self, up: bool) {
        self.state.available.store(up, Ordering::SeqCst);
    }

    /// Makes discovery name `issuer` instead of the real one (`None`: the truth again).
    pub fn state_issuer(&self, issuer: Option<&str>) {
        *self.state.stated_issuer.lock() = issuer.map(str::to_owned);
    }

    /// Makes discovery name `uri` as the `jwks_uri` (`None`: the real one again).
    pub fn state_jwks_uri(&self, uri: Option<&str>) {
        *self.state.stated_jwks_uri.lock() = uri.map(str::to_owned);
    }

    /// Serves `body` as the JWKS instead of the published keys (`None`: the keys again).
    pub fn serve_jwks_body(&self, body: Option<String>) {
        *self.state.jwks_body.lock() = body;
    }

    /// Makes discovery answer `302 Found` to `location` (`None`: the document again).
    pub fn redirect_discovery(&self, location: Option<&str>) {
        *self.state.discovery_redirect.lock() = location.map(str::to_owned);
    }

    /// Holds every answer back by `delay` (a slow or hung provider).
    pub fn set_response_delay(&self, delay: Duration) {
        *self.state.delay.lock() = delay;
    }

    /// Discovery requests answered (503s included).
    pub fn discovery_requests(&self) -> usize {
        self.state.discovery_requests.load(Ordering::SeqCst)
    }

    /// JWKS requests answered (503s included).
    pub fn jwks_requests(&self) -> usize {
        self.state.jwks_requests.load(Ordering::SeqCst)
    }

    /// Stops serving: from now on connections to its address are refused.
    pub async fn stop(mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            shutdown.send(()).ok();
        }
        if let Some(server) = self.server.take() {
            // Graceful shutdown closes idle keep-alive connections at once; a client holding a
            // request open is not waited for long.
            let abort = server.abort_handle();
            if tokio::time::timeout(Duration::from_secs(5), server)
                .await
                .is_err()
            {
                abort.abort();
            }
        }
    }
}

async fn discovery(State(state): State<Arc<IssuerState>>) -> Response {
    state.discovery_requests.fetch_add(1, Ordering::SeqCst);
    state.hold_back().await;
    if !state.available.load(Ordering::SeqCst) {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    if let Some(location) = state.discovery_redirect.lock().clone() {
        return (StatusCode::FOUND, [("location", location)]).into_response();
    }
    let issuer = state
        .stated_issuer
        .lock()
        .clone()
        .unwrap_or_else(|| state.issuer.clone());
    let jwks_uri = state
        .stated_jwks_uri
        .lock()
        .clone()
        .unwrap_or_else(|| state.jwks_uri.clone());
    axum::Json(json!({
        "issuer": issuer,
        "jwks_uri": jwks_uri,
        "authorization_endpoint": format!("{}/protocol/openid-connect/auth", state.issuer),
        "token_endpoint": format!("{}/protocol/openid-connect/token", state.issuer),
        "id_token_signing_alg_values_supported": ["RS256", "PS256", "ES256"],
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
        "authorization_response_iss_parameter_supported": true,
    }))
    .into_response()
}

async fn jwks(State(state): State<Arc<IssuerState>>) -> Response {
    state.jwks_requests.fetch_add(1, Ordering::SeqCst);
    state.hold_back().await;
    if !state.available.load(Ordering::SeqCst) {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    if let Some(body) = state.jwks_body.lock().clone() {
        return ([("content-type", "application/json")], body).into_response();
    }
    let keys = state.keys.lock().clone();
    axum::Json(json!({ "keys": keys })).into_response()
}

impl IssuerState {
    async fn hold_back(&self) {
        let delay = *self.delay.lock();
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
    }
}
