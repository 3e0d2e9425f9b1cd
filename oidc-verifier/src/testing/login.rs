//! The test issuer's authorization server: an authorization endpoint that signs a chosen user
//! in (at once, or through a one-field form a browser fills), and a token endpoint that
//! exchanges each code once, checking the client, the redirect URI and the PKCE verifier, and
//! answers an ID token signed with the issuer's first key.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant, SystemTime};

use axum::Form;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use rand::Rng;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::issuer::IssuerState;
use super::keys::TestKey;
use super::tokens::TokenBuilder;
use crate::login::code_challenge;

/// How long a code may wait for its exchange.
const CODE_LIFETIME: Duration = Duration::from_secs(60);

/// A client the issuer knows.
#[derive(Debug, Clone)]
pub(crate) struct Client {
    secret: Option<String>,
    redirect_uri: String,
}

/// A code handed out and what it was for.
#[derive(Debug, Clone)]
pub(crate) struct Grant {
    client_id: String,
    redirect_uri: String,
    nonce: Option<String>,
    challenge: String,
    user: String,
    issued: Instant,
    used: bool,
}

/// The authorization server's state, inside the issuer's.
#[derive(Debug, Default)]
pub(crate) struct LoginState {
    pub(crate) clients: HashMap<String, Client>,
    /// Who the authorization endpoint signs in without asking; `None`: it shows a form.
    pub(crate) sign_in_as: Option<String>,
    /// Claims set on every ID token over the true ones (a test's forgery).
    pub(crate) id_token_overrides: Map<String, Value>,
    pub(crate) signing_key: Option<TestKey>,
    pub(crate) codes: HashMap<String, Grant>,
}

impl LoginState {
    pub(crate) fn register(&mut self, id: &str, secret: Option<&str>, redirect_uri: &str) {
        self.clients.insert(
            id.to_owned(),
            Client {
                secret: secret.map(str::to_owned),
                redirect_uri: redirect_uri.to_owned(),
            },
        );
    }
}

/// The authorization request's parameters (RFC 6749 §4.1.1, RFC 7636 §4.3, OIDC's nonce).
#[derive(Debug, Deserialize)]
pub(crate) struct Authorize {
    #[serde(default)]
    response_type: String,
    #[serde(default)]
    client_id: String,
    #[serde(default)]
    redirect_uri: String,
    #[serde(default)]
    scope: String,
    #[serde(default)]
    state: Option<String>,
    #[serde(default)]
    nonce: Option<String>,
    #[serde(default)]
    code_challenge: String,
    #[serde(default)]
    code_challenge_method: String,
    /// The form's answer: who signs in.
    #[serde(default)]
    user: Option<String>,
    /// The form's other button.
    #[serde(default)]
    decline: Option<String>,
}

fn bad_request(text: &str) -> Response {
    (StatusCode::BAD_REQUEST, text.to_owned()).into_response()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn random() -> String {
    let mut bytes = [0u8; 24];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Whether `requested` is the `registered` redirect URI: the same string, or, for a loopback
/// IP literal registered without a port, the same URI on any port (RFC 8252 §7.3: a client
/// listening on loopback picks its port when it starts).
fn redirect_matches(registered: &str, requested: &str) -> bool {
    if registered == requested {
        return true;
    }
    let (Ok(registered), Ok(mut requested)) =
        (url::Url::parse(registered), url::Url::parse(requested))
    else {
        return false;
    };
    let loopback = matches!(registered.host_str(), Some("127.0.0.1" | "[::1]"));
    if !loopback || registered.port().is_some() || requested.set_port(None).is_err() {
        return false;
    }
    registered == requested
}

/// `GET …/auth`: checks the request, then signs the preset user in or shows the form.
pub(crate) async fn authorize(
    State(state): State<Arc<IssuerState>>,
    Query(request): Query<Authorize>,
) -> Response {
    let preset = state.login.lock().sign_in_as.clone();
    answer(&state, request, preset)
}

/// `POST …/auth`: the form's answer.
pub(crate) async fn authorize_form(
    State(state): State<Arc<IssuerState>>,
    Form(request): Form<Authorize>,
) -> Response {
    let user = request.user.clone();
    answer(&state, request, user)
}

fn answer(state: &IssuerState, request: Authorize, user: Option<String>) -> Response {
    if !state.available.load(Ordering::SeqCst) {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    let client = state.login.lock().clients.get(&request.client_id).cloned();
    // An unknown client or redirect URI is never redirected to (RFC 6749 §4.1.2.1).
    let Some(client) = client else {
        return bad_request("unknown client_id");
    };
    if !redirect_matches(&client.redirect_uri, &request.redirect_uri) {
        return bad_request("redirect_uri is not the one registered for this client");
    }
    let back = |pairs: &[(&str, &str)]| {
        let mut url = match url::Url::parse(&request.redirect_uri) {
            Ok(url) => url,
            Err(_) => return bad_request("redirect_uri is not a URL"),
        };
        {
            let mut query = url.query_pairs_mut();
            query.extend_pairs(pairs);
            if let Some(sent) = &request.state {
                query.append_pair("state", sent);
            }
            query.append_pair("iss", &state.issuer);
        }
        Redirect::to(url.as_str()).into_response()
    };
    if request.response_type != "code"
        || !request.scope.split(' ').any(|scope| scope == "openid")
        || request.code_challenge_method != "S256"
        || request.code_challenge.is_empty()
    {
        return back(&[
            ("error", "invalid_request"),
            (
                "error_description",
                "response_type=code, scope openid and an S256 code_challenge are required",
            ),
        ]);
    }
    if request.decline.is_some() {
        return back(&[("error", "access_denied")]);
    }
    let Some(user) = user.filter(|user| !user.trim().is_empty()) else {
        return sign_in_form(&request);
    };
    let code = random();
    state.login.lock().codes.insert(
        code.clone(),
        Grant {
            client_id: request.client_id.clone(),
            redirect_uri: request.redirect_uri.clone(),
            nonce: request.nonce.clone(),
            challenge: request.code_challenge.clone(),
            user: user.trim().to_owned(),
            issued: Instant::now(),
            used: false,
        },
    );
    back(&[("code", &code)])
}

fn sign_in_form(request: &Authorize) -> Response {
    let hidden = [
        ("response_type", request.response_type.as_str()),
        ("client_id", &request.client_id),
        ("redirect_uri", &request.redirect_uri),
        ("scope", &request.scope),
        ("state", request.state.as_deref().unwrap_or("")),
        ("nonce", request.nonce.as_deref().unwrap_or("")),
        ("code_challenge", &request.code_challenge),
        ("code_challenge_method", &request.code_challenge_method),
    ]
    .iter()
    .map(|(name, value)| {
        format!(
            "<input type=\"hidden\" name=\"{name}\" value=\"{}\">",
            escape(value)
        )
    })
    .collect::<String>();
    Html(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Test issuer</title></head>\
         <body><h1>Test issuer</h1><form method=\"post\">{hidden}\
         <label for=\"user\">User name</label> <input id=\"user\" name=\"user\">\
         <button type=\"submit\">Continue</button>\
         <button type=\"submit\" name=\"decline\" value=\"1\">Decline</button></form></body></html>"
    ))
    .into_response()
}

/// The token request's parameters (RFC 6749 §4.1.3, RFC 7636 §4.5).
#[derive(Debug, Deserialize)]
pub(crate) struct Exchange {
    #[serde(default)]
    grant_type: String,
    #[serde(default)]
    code: String,
    #[serde(default)]
    redirect_uri: String,
    #[serde(default)]
    code_verifier: String,
    #[serde(default)]
    client_id: Option<String>,
}

fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    (
        status,
        axum::Json(json!({ "error": error, "error_description": description })),
    )
        .into_response()
}

/// The client a token request authenticates as: HTTP Basic with the secret for a confidential
/// client, the `client_id` field for a public one.
fn authenticated_client(
    login: &LoginState,
    headers: &HeaderMap,
    exchange: &Exchange,
) -> Option<String> {
    let basic = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Basic "))
        .and_then(|encoded| STANDARD.decode(encoded).ok())
        .and_then(|decoded| String::from_utf8(decoded).ok());
    if let Some(basic) = basic {
        let (id, secret) = basic.split_once(':')?;
        let decode = |text: &str| {
            url::form_urlencoded::parse(format!("x={text}").as_bytes())
                .next()
                .map(|(_, value)| value.into_owned())
        };
        let (id, secret) = (decode(id)?, decode(secret)?);
        let client = login.clients.get(&id)?;
        return (client.secret.as_deref() == Some(secret.as_str())).then_some(id);
    }
    let id = exchange.client_id.clone()?;
    let client = login.clients.get(&id)?;
    client.secret.is_none().then_some(id)
}

/// `POST …/token`: the code exchanged once for an ID token.
pub(crate) async fn token(
    State(state): State<Arc<IssuerState>>,
    headers: HeaderMap,
    Form(exchange): Form<Exchange>,
) -> Response {
    state.token_requests.fetch_add(1, Ordering::SeqCst);
    if !state.available.load(Ordering::SeqCst) {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    let mut login = state.login.lock();
    let Some(client_id) = authenticated_client(&login, &headers, &exchange) else {
        return oauth_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "client authentication failed",
        );
    };
    if exchange.grant_type != "authorization_code" {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "only authorization_code",
        );
    }
    let Some(grant) = login.codes.get_mut(&exchange.code) else {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "unknown code");
    };
    if grant.used {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_grant",
            "code already used",
        );
    }
    grant.used = true;
    let grant = grant.clone();
    if grant.issued.elapsed() > CODE_LIFETIME {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "code expired");
    }
    if grant.client_id != client_id || grant.redirect_uri != exchange.redirect_uri {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_grant",
            "code issued to another client or redirect_uri",
        );
    }
    if code_challenge(&exchange.code_verifier) != grant.challenge {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_grant",
            "PKCE verification failed",
        );
    }
    let Some(key) = login.signing_key.clone() else {
        return oauth_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "server_error",
            "no signing key",
        );
    };
    let mut id_token = TokenBuilder::new(&state.issuer, &client_id, &grant.user, SystemTime::now())
        .header("typ", "JWT")
        .claim("azp", client_id.as_str())
        .claim("preferred_username", grant.user.as_str());
    if let Some(nonce) = &grant.nonce {
        id_token = id_token.claim("nonce", nonce.as_str());
    }
    for (name, value) in &login.id_token_overrides {
        id_token = id_token.claim(name, value.clone());
    }
    drop(login);
    axum::Json(json!({
        "access_token": random(),
        "token_type": "Bearer",
        "expires_in": 300,
        "id_token": id_token.sign(&key),
    }))
    .into_response()
}
