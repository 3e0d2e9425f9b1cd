//! Signing in with an administrator's API token, and signing out.
//!
//! The sign-in form is protected against login CSRF (a foreign page signing the victim in as
//! the attacker) by a double-submit token: `GET /admin/signin` sets a short-lived random cookie
//! and puts the same value in the form; the POST must bring both, equal. Failed sign-ins draw
//! from the client address's rate bucket, like failed bearer tokens.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Extension, Form};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use http::header::SET_COOKIE;
use http::{HeaderMap, HeaderValue, StatusCode};
use rand::Rng;
use serde::Deserialize;

use super::AdminState;
use super::auth::{administered, csrf_refused};
use super::html::{self, escape};
use super::session::{self, check_csrf, clear_cookie, cookie_value, same_secret, set_cookie};
use crate::http::limits::RateKey;

/// The sign-in form's double-submit cookie.
const SIGNIN_COOKIE: &str = "wiki_mcp_signin";

/// The longest credential read from the form (API tokens are ~60 characters; OIDC access
/// tokens a few KiB).
const MAX_CREDENTIAL: usize = 16 * 1024;

#[derive(Deserialize)]
pub(crate) struct SignIn {
    #[serde(default)]
    token: String,
    #[serde(default)]
    csrf: String,
}

#[derive(Deserialize)]
pub(crate) struct SignOut {
    #[serde(default)]
    csrf: String,
}

fn render_form(state: &AdminState, status: StatusCode, error: Option<&str>) -> Response {
    let mut bytes = [0u8; 24];
    rand::rng().fill_bytes(&mut bytes);
    let nonce = URL_SAFE_NO_PAD.encode(bytes);
    let error = error.map_or_else(String::new, |text| {
        format!("<div class=\"error\" role=\"alert\">{}</div>", escape(text))
    });
    let body = format!(
        "<div class=\"signin card\"><h1>Sign in</h1>{error}{}\
         <p class=\"muted\">Paste an API token of a user who administers the farm or a wiki \
         (<code>wiki-mcp token create --user NAME</code>).</p>\
         <form method=\"post\" action=\"{}/admin/signin\">{}\
         <label for=\"token\">API token</label>\
         <input type=\"password\" id=\"token\" name=\"token\" autocomplete=\"off\" required>\
         <p><button type=\"submit\">Sign in</button></p></form></div>",
        super::oidc_login::signin_choices(state),
        escape(&state.prefix),
        html::csrf_field(&nonce)
    );
    let mut response = html::page(status, "Sign in", None, &body);
    let secure = if state.secure { "; Secure" } else { "" };
    let cookie = format!(
        "{SIGNIN_COOKIE}={nonce}; Path={}; HttpOnly; SameSite=Strict; Max-Age=900{secure}",
        state.at("/admin/signin")
    );
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(SET_COOKIE, value);
    }
    response
}

/// `GET /admin/signin`: the form, or the wikis when already signed in.
pub(crate) async fn form(State(state): State<Arc<AdminState>>, headers: HeaderMap) -> Response {
    match session::current(&state, &headers).await {
        Ok(Some(_)) => Redirect::to(&state.at("/admin")).into_response(),
        Ok(None) => render_form(&state, StatusCode::OK, None),
        Err(response) => response,
    }
}

/// `POST /admin/signin`: checks the double-submit token, resolves the credential, requires an
/// admin right somewhere, opens the session.
pub(crate) async fn submit(
    State(state): State<Arc<AdminState>>,
    connect: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    Form(form): Form<SignIn>,
) -> Response {
    let nonce_matches = cookie_value(&headers, SIGNIN_COOKIE)
        .is_some_and(|cookie| same_secret(&cookie, &form.csrf));
    if !nonce_matches {
        return csrf_refused(&state);
    }
    let address = connect.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.0.ip());
    let token = form.token.trim();
    let refused = |message: &str| {
        if let Some(response) = state.shared.throttle(RateKey::address(address)) {
            return response.into_response();
        }
        render_form(&state, StatusCode::UNAUTHORIZED, Some(message))
    };
    if token.is_empty() || token.len() > MAX_CREDENTIAL {
        return refused("That token is not valid. Paste the whole token, as it was shown once.");
    }
    let user = match state.shared.directory().bearer_of(token.to_owned()).await {
        Ok(Some(bearer)) if bearer.is_full_at(time::OffsetDateTime::now_utc()) => bearer.user,
        Ok(Some(bearer))
            if bearer
                .scope
                .as_ref()
                .is_some_and(|scope| !scope.expired_at(time::OffsetDateTime::now_utc())) =>
        {
            return refused(
                "That token is scoped (read-only, or to some tools or wikis): it cannot sign in \
                 here. Sign in with a full token.",
            );
        }
        Ok(_) => {
            return refused(
                "That token is not valid or was revoked. Paste the whole token, as it was shown once.",
            );
        }
        Err(error) => {
            tracing::error!(%error, "the admin sign-in could not resolve a token");
            return super::auth::unavailable(&state);
        }
    };
    match administered(&state, &user).await {
        Ok(Some(_)) => {}
        Ok(None) => {
            tracing::info!(%user, "admin sign-in refused: the user administers no wiki");
            return refused(
                "This token's user does not administer the farm or any wiki. Sign in with an \
                 administrator's token.",
            );
        }
        Err(response) => return response,
    }
    tracing::info!(%user, "admin signed in with an API token");
    let response = Redirect::to(&state.at("/admin")).into_response();
    open_session(&state, &user, response).await
}

/// Opens a session for `user` (who administers something: the caller checked) and answers
/// `response` with its cookie set and the sign-in form's double-submit cookie cleared (or the
/// "unavailable" page when the session cannot be stored).
pub(super) async fn open_session(
    state: &AdminState,
    user: &str,
    mut response: Response,
) -> Response {
    let id = match session::open(state, user).await {
        Ok(id) => id,
        Err(refusal) => return refusal,
    };
    for cookie in [
        set_cookie(&id, &state.at("/admin"), state.secure),
        format!(
            "{SIGNIN_COOKIE}=; Path={}; HttpOnly; SameSite=Strict; Max-Age=0",
            state.at("/admin/signin")
        ),
    ] {
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(SET_COOKIE, value);
        }
    }
    response
}

/// `POST /admin/signout`: ends the session (with its CSRF token, so no page elsewhere can sign
/// an administrator out).
pub(crate) async fn signout(
    State(state): State<Arc<AdminState>>,
    headers: HeaderMap,
    Form(form): Form<SignOut>,
) -> Response {
    let session = match session::current(&state, &headers).await {
        Ok(Some(session)) => session,
        Ok(None) => return Redirect::to(&state.at("/admin/signin")).into_response(),
        Err(response) => return response,
    };
    if !check_csrf(&session, &form.csrf) {
        return csrf_refused(&state);
    }
    if let Err(response) = session::close(&state, &headers).await {
        return response;
    }
    tracing::info!(user = %session.user, "admin signed out");
    let mut response = Redirect::to(&state.at("/admin/signin")).into_response();
    if let Ok(value) = HeaderValue::from_str(&clear_cookie(&state.at("/admin"), state.secure)) {
        response.headers_mut().insert(SET_COOKIE, value);
    }
    response
}
