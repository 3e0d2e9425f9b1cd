//! Signing in at the organisation's identity provider (when `serve` has an OIDC issuer and a
//! client id): OpenID Connect's authorization-code flow with PKCE, run by
//! `oidc_verifier::LoginClient`.
//!
//! `GET /admin/oidc/start?issuer=N` draws the sign-in's state, nonce and PKCE verifier, keeps
//! them in a cookie for ten minutes and sends the browser to the issuer. The issuer sends it
//! back to `GET /admin/oidc/callback` on the server's public URL: the state must be the
//! cookie's, the code is exchanged at the issuer's token endpoint, and the ID token checked
//! (signature, issuer, audience = the client id, times, nonce). The user its issuer and
//! subject are linked to (`crate::oidc`: never a user whose name the token's claims carry) must
//! administer the farm or a wiki, exactly as for a token sign-in, and then gets the same
//! session.
//!
//! The pending sign-in's cookie is `SameSite=Lax`, not `Strict`: the callback is a navigation
//! from the issuer's site, which a `Strict` cookie would not accompany. For the same reason
//! the callback answers a page that moves on to `/admin` itself rather than a redirect: the
//! session cookie is `Strict`, and a redirect that continues the issuer's navigation would
//! arrive without it.
//!
//! The pending sign-in is also recorded server-side, in the farm's database, by the digest of
//! the cookie's value (`AdminStore::begin_admin_login`), and the callback takes that record
//! before anything else (`take_admin_login`: once, before it expires, on whichever replica the
//! issuer sends the browser to). So a replayed callback (the same cookie again, even after the
//! browser was told to clear it), a cookie this farm did not issue, and one older than ten
//! minutes are refused on every replica; the issuer's one-time code is a further guard.
//!
//! Starting a sign-in needs no credential, so it is bounded twice: one client network starts
//! [`STARTS_PER_NETWORK`] at once (one more every [`ONE_MORE_START_EVERY`]), and the farm keeps
//! [`MAX_PENDING_LOGINS`] under way, beyond which a start is refused: a flood never evicts the
//! sign-in of a person already at their identity provider.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::Extension;
use axum::extract::{ConnectInfo, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use http::header::SET_COOKIE;
use http::{HeaderMap, HeaderValue, StatusCode};
use oidc_verifier::{Callback, LoginClient, LoginError};
use serde::Deserialize;
use url::Url;

use super::AdminState;
use super::auth::administered;
use super::html::{self, escape};
use super::on_store::now_ms;
use super::session::{cookie_value_within, digest};
use super::signin::open_session;
use crate::http::Refusal;
use crate::http::limits::{RateKey, RateLimiter};

/// The pending sign-in's cookie.
const LOGIN_COOKIE: &str = "wiki_mcp_oidc";

/// Its path: only the callback needs it.
const LOGIN_COOKIE_PATH: &str = "/admin/oidc";

/// How long a person may take at the identity provider.
const LOGIN_COOKIE_SECONDS: u32 = 600;

/// The longest pending-sign-in cookie read (`LoginClient::encode` writes about 140 bytes).
const MAX_LOGIN_COOKIE: usize = 512;

/// Sign-ins under way kept at most, farm-wide (starting one needs no credential, so a flood
/// must not grow the table; beyond, a new start is refused, and those under way stay).
const MAX_PENDING_LOGINS: u32 = 10_000;

/// Sign-ins one client network (an IPv4 address, an IPv6 /64) may start at once, and how
/// often it gets one more: a person starts a few; filling [`MAX_PENDING_LOGINS`] then takes
/// hundreds of networks, not one script.
const STARTS_PER_NETWORK: u32 = 20;
const ONE_MORE_START_EVERY: Duration = Duration::from_secs(30);

/// The per-network limit on starting sign-ins, separate from the request rate limit (which
/// lets one address start thousands within a sign-in's ten minutes).
pub(super) fn start_limiter() -> RateLimiter {
    RateLimiter::refilling(STARTS_PER_NETWORK, ONE_MORE_START_EVERY)
}

#[derive(Deserialize)]
pub(crate) struct Start {
    #[serde(default)]
    issuer: usize,
}

fn login(state: &AdminState) -> Option<&Arc<LoginClient>> {
    state.shared.directory().oidc()?.login()
}

/// The sign-in form's buttons, one per issuer; empty without an OIDC client.
pub(crate) fn signin_choices(state: &AdminState) -> String {
    let Some(login) = login(state) else {
        return String::new();
    };
    let mut buttons = String::new();
    for (index, issuer) in login.issuers().iter().enumerate() {
        let name = Url::parse(issuer.as_str())
            .ok()
            .and_then(|url| url.host_str().map(str::to_owned))
            .unwrap_or_else(|| issuer.as_str().to_owned());
        buttons.push_str(&format!(
            "<p><a class=\"button\" href=\"{}/admin/oidc/start?issuer={index}\">Sign in with {}</a></p>",
            escape(&state.prefix),
            escape(&name)
        ));
    }
    format!(
        "<p class=\"muted\">With your organisation's account:</p>{buttons}\
         <p class=\"muted or\">or with an API token</p>"
    )
}

/// Where the issuer sends the browser back: the callback on the server's public URL.
fn redirect_uri(state: &AdminState) -> Option<Url> {
    Url::parse(&format!("{}/admin/oidc/callback", state.shared.base_url())).ok()
}

fn login_cookie(state: &AdminState, value: &str, max_age: u32) -> Option<HeaderValue> {
    let secure = if state.secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{LOGIN_COOKIE}={value}; Path={}; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}",
        state.at(LOGIN_COOKIE_PATH)
    ))
    .ok()
}

fn not_configured(state: &AdminState) -> Response {
    html::refusal(&state.prefix, None, &Refusal::NoIdentityProvider)
}

/// `GET /admin/oidc/start?issuer=N`: to the issuer's authorization endpoint.
pub(crate) async fn start(
    State(state): State<Arc<AdminState>>,
    connect: Option<Extension<ConnectInfo<SocketAddr>>>,
    Query(start): Query<Start>,
) -> Response {
    let Some(login) = login(&state) else {
        return not_configured(&state);
    };
    let (Some(issuer), Some(redirect)) = (login.issuers().get(start.issuer), redirect_uri(&state))
    else {
        return not_configured(&state);
    };
    let address = connect.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.0.ip());
    if let Err(wait) = state.login_starts.acquire(RateKey::address(address)) {
        return html::refusal(&state.prefix, None, &Refusal::rate_limited(wait));
    }
    match login.begin(issuer, &redirect).await {
        Ok(begun) => {
            let value = login.encode(&begun.pending);
            let key = digest(&value);
            let now = now_ms();
            let expires = now.saturating_add(i64::from(LOGIN_COOKIE_SECONDS) * 1000);
            let recorded = state
                .on_store("record a pending sign-in", move |store| {
                    store.begin_admin_login(&key, now, expires, MAX_PENDING_LOGINS)
                })
                .await;
            match recorded {
                Ok(true) => {}
                Ok(false) => {
                    tracing::warn!("admin OIDC sign-ins under way reached their cap");
                    return html::refusal(&state.prefix, None, &Refusal::SignInsBusy);
                }
                Err(response) => return response,
            }
            let mut response = Redirect::to(begun.authorization_url.as_str()).into_response();
            if let Some(cookie) = login_cookie(&state, &value, LOGIN_COOKIE_SECONDS) {
                response.headers_mut().append(SET_COOKIE, cookie);
            }
            response
        }
        Err(error) => {
            tracing::warn!(%issuer, %error, "cannot start an admin sign-in at the OIDC issuer");
            html::refusal(&state.prefix, None, &Refusal::IdentityProviderUnavailable)
        }
    }
}

/// `GET /admin/oidc/callback?code=…&state=…`: the issuer's answer.
pub(crate) async fn callback(
    State(state): State<Arc<AdminState>>,
    connect: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    Query(answer): Query<Callback>,
) -> Response {
    let Some(login) = login(&state) else {
        return not_configured(&state);
    };
    let address = connect.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.0.ip());
    let mut response = finish(&state, login, address, &headers, &answer).await;
    // Whatever happened, this sign-in is over: its state, nonce and verifier are not reused.
    if let Some(cookie) = login_cookie(&state, "", 0) {
        response.headers_mut().append(SET_COOKIE, cookie);
    }
    response
}

async fn finish(
    state: &AdminState,
    login: &LoginClient,
    address: IpAddr,
    headers: &HeaderMap,
    answer: &Callback,
) -> Response {
    let refused = |refusal: Refusal| {
        if let Some(limited) = state.shared.throttle(RateKey::address(address)) {
            return limited.into_response();
        }
        let mut response = html::page(
            refusal.status(),
            refusal.title(),
            None,
            &format!(
                "<div class=\"signin card\"><h1>{}</h1><div class=\"error\" role=\"alert\">{}</div>\
                 <p><a href=\"{}/admin/signin\">Back to sign-in</a></p></div>",
                escape(refusal.title()),
                escape(&refusal.text()),
                escape(&state.prefix)
            ),
        );
        refusal.attach(&mut response);
        response
    };
    let expired = || refused(Refusal::SignInExpired);
    let Some((value, pending)) = cookie_value_within(headers, LOGIN_COOKIE, MAX_LOGIN_COOKIE)
        .and_then(|value| login.decode(&value).map(|pending| (value, pending)))
    else {
        tracing::info!("admin OIDC callback without a pending sign-in in this browser");
        return expired();
    };
    // Single use, farm-wide: whichever replica this callback reached, the record is taken
    // once, so a replay of the same cookie fails everywhere, before any exchange.
    let key = digest(&value);
    let taken = state
        .on_store("take a pending sign-in", move |store| {
            store.take_admin_login(&key, now_ms())
        })
        .await;
    match taken {
        Ok(true) => {}
        Ok(false) => {
            tracing::info!(
                "admin OIDC callback with a pending sign-in this farm does not hold (replayed, \
                 foreign or expired)"
            );
            return expired();
        }
        Err(response) => return response,
    }
    let Some(redirect) = redirect_uri(state) else {
        return not_configured(state);
    };
    let verified = match login.finish(&pending, answer, &redirect).await {
        Ok(verified) => verified,
        Err(error) => {
            tracing::info!(issuer = %pending.issuer(), %error, "admin OIDC sign-in refused");
            return refused(match error {
                LoginError::Denied { .. } => Refusal::SignInDenied,
                LoginError::Fetch(_) => Refusal::SignInUnreachable,
                _ => Refusal::SignInIncomplete,
            });
        }
    };
    let Some(oidc) = state.shared.directory().oidc() else {
        return not_configured(state);
    };
    let seq = state.shared.manager().change_seq();
    let signed_in = oidc
        .user_of_verified(state.shared.manager().store(), &verified, seq)
        .await;
    let user = match signed_in {
        Ok(Ok(user)) => user.name,
        Ok(Err(_)) => {
            // Why (with how to link the identity) is in the log.
            return refused(Refusal::UnlinkedIdentity);
        }
        Err(error) => {
            tracing::error!(%error, "the admin OIDC sign-in could not resolve its identity");
            return super::auth::unavailable(state);
        }
    };
    let user = user.as_str();
    match administered(state, user).await {
        Ok(Some(_)) => {}
        Ok(None) => {
            tracing::info!(%user, "admin OIDC sign-in refused: the user administers no wiki");
            return refused(Refusal::NotAdministrator {
                user: user.to_owned(),
            });
        }
        Err(response) => return response,
    }
    tracing::info!(%user, issuer = %verified.issuer(), "admin signed in at the OIDC issuer");
    let home = state.at("/admin");
    let mut response = html::page(
        StatusCode::OK,
        "Signed in",
        None,
        &format!(
            "<div class=\"signin card\"><h1>Signed in</h1><p>Welcome, {}.</p>\
             <p><a class=\"button\" href=\"{}\">Continue to the admin page</a></p></div>",
            escape(user),
            escape(&home)
        ),
    );
    // The session cookie is SameSite=Strict: the next page must be a navigation this site
    // starts, not the rest of the issuer's redirect chain.
    if let Ok(refresh) = HeaderValue::from_str(&format!("0; url={home}")) {
        response.headers_mut().insert("refresh", refresh);
    }
    open_session(state, user, response).await
}
