//! Admin sessions: a random id in a cookie, kept in the farm's database as a digest, so any
//! replica behind a load balancer knows every session and a sign-out on one ends it on all.
//!
//! A session is created by signing in and ends by signing out, after [`IDLE_TIMEOUT`] without a
//! request, or [`MAX_LIFETIME`] after sign-in, whichever comes first (the store checks both on
//! every request, against this server's clock). The cookie is `HttpOnly` (no script reads it),
//! `SameSite=Strict` (no other site's page sends it), scoped to the admin pages under the
//! public URL's path, and `Secure` when the public URL is https. Each session has its own CSRF
//! token, which every form carries and every POST must echo ([`check_csrf`]); SameSite
//! alone is not relied upon (older browsers, same-site subdomains).
//!
//! The database holds `SHA-256(id)` only; the CSRF token is derived from the id under another
//! label ([`csrf_of`]), so neither the cookie nor the token can be rebuilt from a copy of the
//! database, and no replica needs to share anything but the table.

use std::time::Duration;

use axum::response::Response;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use http::HeaderMap;
use http::header::COOKIE;
use rand::Rng;
use sha2::{Digest, Sha256};
use wiki_store::model::admin::{AdminSession, SecretDigest};

use super::AdminState;
use super::on_store::now_ms;

/// The cookie's name.
pub(crate) const COOKIE_NAME: &str = "wiki_mcp_admin";

/// A session unused this long is over.
pub(crate) const IDLE_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// A session is over this long after sign-in, however busy.
pub(crate) const MAX_LIFETIME: Duration = Duration::from_secs(8 * 60 * 60);

/// Live sessions kept at most, farm-wide; the least recently used is dropped beyond (bounds
/// the table under a flood of sign-ins, which need an admin credential anyway).
const MAX_SESSIONS: u32 = 1024;

/// Who a session belongs to, and its CSRF token.
#[derive(Debug, Clone)]
pub(crate) struct Session {
    /// The signed-in user.
    pub(crate) user: String,
    /// The token every form of this session carries.
    pub(crate) csrf: String,
}

/// 32 random bytes, URL-safe base64.
pub(crate) fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// What the store keeps of a browser's secret.
pub(crate) fn digest(secret: &str) -> SecretDigest {
    Sha256::digest(secret.as_bytes()).into()
}

/// The CSRF token of the session whose cookie holds `id`: a digest of the id under its own
/// label, so it differs from what the store keeps and reveals nothing of the id.
fn csrf_of(id: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"wiki-mcp admin csrf\0");
    hasher.update(id.as_bytes());
    URL_SAFE_NO_PAD.encode(hasher.finalize())
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// Opens a session for `user`; returns the id for the cookie.
pub(crate) async fn open(state: &AdminState, user: &str) -> Result<String, Response> {
    let id = random_token();
    let now = now_ms();
    let session = AdminSession {
        digest: digest(&id),
        user: user.to_owned(),
        created_ms: now,
        last_used_ms: now,
        idle_ms: millis(IDLE_TIMEOUT),
        expires_ms: now.saturating_add(millis(MAX_LIFETIME)),
    };
    state
        .on_store("open a session", move |store| {
            store.open_admin_session(&session, MAX_SESSIONS)
        })
        .await?;
    Ok(id)
}

/// The session the request's cookie names, if it is live; touching it.
pub(crate) async fn current(
    state: &AdminState,
    headers: &HeaderMap,
) -> Result<Option<Session>, Response> {
    let Some(id) = cookie(headers) else {
        return Ok(None);
    };
    let key = digest(&id);
    let found = state
        .on_store("read a session", move |store| {
            store.touch_admin_session(&key, now_ms())
        })
        .await?;
    Ok(found.map(|found| Session {
        user: found.user,
        csrf: csrf_of(&id),
    }))
}

/// Ends the request's session, if any, for every replica.
pub(crate) async fn close(state: &AdminState, headers: &HeaderMap) -> Result<(), Response> {
    if let Some(id) = cookie(headers) {
        let key = digest(&id);
        state
            .on_store("close a session", move |store| {
                store.close_admin_session(&key)
            })
            .await?;
    }
    Ok(())
}

/// Ends every session of `user` (their admin right was withdrawn, say).
pub(crate) async fn close_user(state: &AdminState, user: &str) -> Result<(), Response> {
    let user = user.to_owned();
    state
        .on_store("close a user's sessions", move |store| {
            store.close_admin_sessions_of(&user)
        })
        .await
        .map(drop)
}

/// Whether `presented` is `session`'s CSRF token, compared in constant time.
pub(crate) fn check_csrf(session: &Session, presented: &str) -> bool {
    same_secret(&session.csrf, presented)
}

/// Whether two secrets are equal, in time independent of where they differ.
pub(crate) fn same_secret(expected: &str, presented: &str) -> bool {
    use subtle::ConstantTimeEq;
    let (expected, presented) = (expected.as_bytes(), presented.as_bytes());
    expected.len() == presented.len() && bool::from(expected.ct_eq(presented))
}

/// The value of cookie `name` in the request's `Cookie` header(s), if non-empty and short (the
/// page's cookies are 32 random bytes in base64).
pub(crate) fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    cookie_value_within(headers, name, 64)
}

/// The value of cookie `name`, if non-empty and at most `max_len` bytes.
pub(crate) fn cookie_value_within(
    headers: &HeaderMap,
    name: &str,
    max_len: usize,
) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(found, _)| *found == name)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|value| !value.is_empty() && value.len() <= max_len)
}

/// The session id in the request's cookies.
fn cookie(headers: &HeaderMap) -> Option<String> {
    cookie_value(headers, COOKIE_NAME)
}

/// The `Set-Cookie` value that stores `id`, for the admin pages at `path`.
pub(crate) fn set_cookie(id: &str, path: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{COOKIE_NAME}={id}; Path={path}; HttpOnly; SameSite=Strict; Max-Age={}{secure}",
        MAX_LIFETIME.as_secs()
    )
}

/// The `Set-Cookie` value that removes the cookie.
pub(crate) fn clear_cookie(path: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{COOKIE_NAME}=; Path={path}; HttpOnly; SameSite=Strict; Max-Age=0{secure}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_csrf_token_is_neither_the_id_nor_its_stored_digest() {
        let id = random_token();
        let csrf = csrf_of(&id);
        assert_ne!(csrf, id);
        assert_ne!(csrf, URL_SAFE_NO_PAD.encode(digest(&id)));
        assert_eq!(csrf, csrf_of(&id), "every replica derives the same token");
        assert_ne!(csrf, csrf_of(&random_token()));
    }

    #[test]
    fn the_cookie_is_http_only_strict_scoped_and_secure_behind_https() {
        let plain = set_cookie("abc", "/wiki-mcp/admin", false);
        assert!(plain.contains("HttpOnly") && plain.contains("SameSite=Strict"));
        assert!(plain.contains("Path=/wiki-mcp/admin;"));
        assert!(!plain.contains("Secure"));
        assert!(set_cookie("abc", "/admin", true).ends_with("; Secure"));
    }
}
