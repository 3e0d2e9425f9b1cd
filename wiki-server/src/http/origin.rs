//! Host and Origin validation, against DNS rebinding.
//!
//! A web page on `evil.example` can make its own name resolve to 127.0.0.1 and then script
//! requests to a server listening on loopback: the browser sends `Host: evil.example` and
//! `Origin: http://evil.example`. Accepting only loopback names (and the configured public URL)
//! in both headers closes that door. A request without `Origin` is not from a browser page and
//! passes; `Origin: null` (sandboxed frames, `file:` pages) does not.
//!
//! This runs before routing decisions that could leak anything (even the 404 of a disabled wiki)
//! and covers every route, the metadata document included, so rmcp's own host check is turned
//! off rather than duplicated.

use std::net::IpAddr;

use axum::extract::Request;
use http::Uri;
use http::header::{HOST, ORIGIN};
use http::uri::{Authority, Scheme};

use super::refusal::Refusal;
use super::url::BaseUrl;

/// Which `Host` and `Origin` values the server accepts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OriginPolicy<'a> {
    public: Option<&'a BaseUrl>,
}

impl<'a> OriginPolicy<'a> {
    /// Loopback names always; the base URL's host and origin too when it is a public URL.
    pub(crate) fn new(base: Option<&'a BaseUrl>) -> Self {
        OriginPolicy {
            public: base.filter(|base| base.is_public()),
        }
    }

    /// Whether a `Host` header value names this server.
    pub(crate) fn host_allowed(&self, host: &str) -> bool {
        let Ok(authority) = host.parse::<Authority>() else {
            return false;
        };
        if is_loopback(authority.host()) {
            return true;
        }
        self.public.is_some_and(|public| {
            let scheme = public.scheme();
            same_host_and_port(&authority, scheme, public.authority(), scheme)
        })
    }

    /// Whether an `Origin` header value is a page of this server (or a local tool).
    pub(crate) fn origin_allowed(&self, origin: &str) -> bool {
        let Ok(uri) = origin.parse::<Uri>() else {
            return false;
        };
        let (Some(scheme), Some(authority)) = (uri.scheme(), uri.authority()) else {
            return false;
        };
        if is_loopback(authority.host()) {
            return true;
        }
        self.public.is_some_and(|public| {
            scheme == public.scheme()
                && same_host_and_port(authority, scheme, public.authority(), public.scheme())
        })
    }
}

/// `localhost` or a loopback IP (`127.0.0.0/8`, `::1`, bracketed or not).
fn is_loopback(host: &str) -> bool {
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Hosts equal ignoring case, ports equal once a missing port means the scheme's default.
fn same_host_and_port(a: &Authority, a_scheme: &Scheme, b: &Authority, b_scheme: &Scheme) -> bool {
    a.host().eq_ignore_ascii_case(b.host())
        && port_or_default(a, a_scheme) == port_or_default(b, b_scheme)
}

fn port_or_default(authority: &Authority, scheme: &Scheme) -> u16 {
    authority
        .port_u16()
        .unwrap_or(if *scheme == Scheme::HTTPS { 443 } else { 80 })
}

/// The `403` to answer for a foreign `Host` or `Origin`; `None` lets the request go on.
pub(crate) fn refusal(policy: OriginPolicy<'_>, request: &Request) -> Option<Refusal> {
    let host = request
        .headers()
        .get(HOST)
        .and_then(|value| value.to_str().ok())
        .or_else(|| request.uri().authority().map(Authority::as_str));
    if !host.is_some_and(|host| policy.host_allowed(host)) {
        return Some(Refusal::HostNotAllowed);
    }
    if let Some(origin) = request.headers().get(ORIGIN) {
        let allowed = origin
            .to_str()
            .is_ok_and(|origin| policy.origin_allowed(origin));
        if !allowed {
            return Some(Refusal::OriginNotAllowed);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    #[test]
    fn loopback_hosts_are_accepted_and_others_refused_by_default() {
        let policy = OriginPolicy::new(None);
        for host in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:1",
            "127.1.2.3",
            "[::1]:80",
            "LOCALHOST",
        ] {
            assert!(policy.host_allowed(host), "{host}");
        }
        for host in [
            "evil.example",
            "evil.example:8080",
            "10.0.0.1",
            "0.0.0.0:80",
            "",
            "a b",
        ] {
            assert!(!policy.host_allowed(host), "{host}");
        }
    }

    #[test]
    fn a_public_url_adds_its_host_and_origin() -> Result<(), Error> {
        let public = BaseUrl::parse("https://Wiki.Example.com/x")?;
        let policy = OriginPolicy::new(Some(&public));
        assert!(policy.host_allowed("wiki.example.com"));
        assert!(policy.host_allowed("wiki.example.com:443"));
        assert!(!policy.host_allowed("wiki.example.com:8443"));
        assert!(!policy.host_allowed("evil.example"));
        assert!(policy.origin_allowed("https://wiki.example.com"));
        assert!(!policy.origin_allowed("http://wiki.example.com"));
        assert!(!policy.origin_allowed("https://evil.example"));
        Ok(())
    }

    #[test]
    fn a_bound_address_adds_nothing() {
        let bound = BaseUrl::for_address(([10, 0, 0, 1], 80).into());
        let policy = OriginPolicy::new(Some(&bound));
        assert!(!policy.host_allowed("10.0.0.1"));
        assert!(!policy.origin_allowed("http://10.0.0.1"));
    }

    #[test]
    fn browser_origins_must_be_local_and_null_is_refused() {
        let policy = OriginPolicy::new(None);
        assert!(policy.origin_allowed("http://localhost:6274"));
        assert!(policy.origin_allowed("http://127.0.0.1:3000"));
        assert!(!policy.origin_allowed("http://evil.example"));
        assert!(!policy.origin_allowed("null"));
    }
}
