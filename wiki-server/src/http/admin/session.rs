//! Admin sessions: a random id in a cookie, kept in this process's memory as a digest.
//!
//! A session is created by signing in and ends by signing out, after [`IDLE_TIMEOUT`] without a
//! request, or [`MAX_LIFETIME`] after sign-in, whichever comes first. The cookie is `HttpOnly`
//! (no script reads it), `SameSite=Strict` (no other site's page sends it), scoped to `/admin`,
//! and `Secure` when the server's public URL is https. Each session has its own CSRF token,
//! which every form carries and every POST must echo ([`Sessions::check_csrf`]); SameSite alone
//! is not relied upon (older browsers, same-site subdomains).
//!
//! Sessions live in memory: a restart signs administrators out, and replicas do not share them
//! (the page's changes go to the shared store, so any replica serves the result).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use http::HeaderMap;
use http::header::COOKIE;
use parking_lot::Mutex;
use rand::Rng;
use sha2::{Digest, Sha256};

/// The cookie's name.
pub(crate) const COOKIE_NAME: &str = "wiki_mcp_admin";

/// A session unused this long is over.
pub(crate) const IDLE_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// A session is over this long after sign-in, however busy.
pub(crate) const MAX_LIFETIME: Duration = Duration::from_secs(8 * 60 * 60);

/// Live sessions kept at most; the oldest is dropped beyond (bounds memory under a flood of
/// sign-ins, which need an admin credential anyway).
const MAX_SESSIONS: usize = 1024;

/// Who a session belongs to, and its CSRF token.
#[derive(Debug, Clone)]
pub(crate) struct Session {
    /// The signed-in user.
    pub(crate) user: String,
    /// The token every form of this session carries.
    pub(crate) csrf: String,
}

struct Entry {
    session: Session,
    created: Instant,
    last_used: Instant,
}

/// The live sessions, keyed by the SHA-256 of their id (no clear id is kept).
#[derive(Default)]
pub(crate) struct Sessions {
    live: Mutex<HashMap<[u8; 32], Entry>>,
}

/// 32 random bytes, URL-safe base64.
fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

fn digest(id: &str) -> [u8; 32] {
    Sha256::digest(id.as_bytes()).into()
}

impl Sessions {
    /// Opens a session for `user`; returns the id for the cookie.
    pub(crate) fn open(&self, user: &str) -> String {
        let id = random_token();
        let now = Instant::now();
        let mut live = self.live.lock();
        live.retain(|_, entry| alive(entry, now));
        if live.len() >= MAX_SESSIONS
            && let Some(oldest) = live
                .iter()
                .min_by_key(|(_, entry)| entry.last_used)
                .map(|(key, _)| *key)
        {
            live.remove(&oldest);
        }
        live.insert(
            digest(&id),
            Entry {
                session: Session {
                    user: user.to_owned(),
                    csrf: random_token(),
                },
                created: now,
                last_used: now,
            },
        );
        id
    }

    /// The session the request's cookie names, if it is live; touching it.
    pub(crate) fn current(&self, headers: &HeaderMap) -> Option<Session> {
        let id = cookie(headers)?;
        let now = Instant::now();
        let mut live = self.live.lock();
        let key = digest(&id);
        let entry = live.get_mut(&key)?;
        if !alive(entry, now) {
            live.remove(&key);
            return None;
        }
        entry.last_used = now;
        Some(entry.session.clone())
    }

    /// Ends the request's session, if any.
    pub(crate) fn close(&self, headers: &HeaderMap) {
        if let Some(id) = cookie(headers) {
            self.live.lock().remove(&digest(&id));
        }
    }

    /// Ends every session of `user` (their admin right was withdrawn, say).
    pub(crate) fn close_user(&self, user: &str) {
        self.live
            .lock()
            .retain(|_, entry| entry.session.user != user);
    }

    /// Whether `presented` is `session`'s CSRF token, compared in constant time.
    pub(crate) fn check_csrf(session: &Session, presented: &str) -> bool {
        same_secret(&session.csrf, presented)
    }
}

/// Whether two secrets are equal, in time independent of where they differ.
pub(crate) fn same_secret(expected: &str, presented: &str) -> bool {
    use subtle::ConstantTimeEq;
    let (expected, presented) = (expected.as_bytes(), presented.as_bytes());
    expected.len() == presented.len() && bool::from(expected.ct_eq(presented))
}

fn alive(entry: &Entry, now: Instant) -> bool {
    now.duration_since(entry.last_used) < IDLE_TIMEOUT
        && now.duration_since(entry.created) < MAX_LIFETIME
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

/// The `Set-Cookie` value that stores `id`.
pub(crate) fn set_cookie(id: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{COOKIE_NAME}={id}; Path=/admin; HttpOnly; SameSite=Strict; Max-Age={}{secure}",
        MAX_LIFETIME.as_secs()
    )
}

/// The `Set-Cookie` value that removes the cookie.
pub(crate) fn clear_cookie(secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{COOKIE_NAME}=; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=0{secure}")
}

#[cfg(test)]
mod tests {
    use http::HeaderValue;

    use super::*;

    fn with_cookie(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn a_session_is_found_by_its_cookie_until_closed() {
        let sessions = Sessions::default();
        let id = sessions.open("admin");
        let headers = with_cookie(&format!("theme=dark; {COOKIE_NAME}={id}"));
        let session = sessions.current(&headers).unwrap();
        assert_eq!(session.user, "admin");
        assert!(Sessions::check_csrf(&session, &session.csrf.clone()));
        assert!(!Sessions::check_csrf(&session, "forged"));
        assert!(!Sessions::check_csrf(&session, ""));
        assert!(
            sessions
                .current(&with_cookie(&format!("{COOKIE_NAME}=x{id}")))
                .is_none()
        );
        sessions.close(&headers);
        assert!(sessions.current(&headers).is_none());
    }

    #[test]
    fn the_cookie_is_http_only_strict_and_secure_behind_https() {
        let plain = set_cookie("abc", false);
        assert!(plain.contains("HttpOnly") && plain.contains("SameSite=Strict"));
        assert!(!plain.contains("Secure"));
        assert!(set_cookie("abc", true).ends_with("; Secure"));
    }
}
