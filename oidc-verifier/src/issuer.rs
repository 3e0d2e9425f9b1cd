//! Issuer identifiers, and the one rule for every URL the verifier fetches: https, or http on a
//! loopback address.
//!
//! An issuer is compared as an exact string: with the discovery document's `issuer` and with
//! each token's `iss` (OpenID Connect Discovery §4.3, RFC 9068 §4). So [`IssuerUrl`] keeps the
//! text as given (`https://idp.example.com/realms/acme` and the same with a trailing slash are
//! two issuers) and uses the parsed form only to check it and to build the discovery URL.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

use url::Url;

use crate::error::ConfigError;

/// Where the discovery document lives, below the issuer.
const DISCOVERY_PATH: &str = "/.well-known/openid-configuration";

/// An OIDC issuer this server trusts: `https://…`, or `http://…` on a loopback address (for a
/// test or a provider on the same host). No user information, query or fragment.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IssuerUrl {
    text: String,
    discovery: Url,
}

impl IssuerUrl {
    /// Checks `text` and keeps it exactly as written.
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let refuse = |reason| ConfigError::InvalidIssuer {
            url: text.to_owned(),
            reason,
        };
        if text.is_empty() {
            return Err(refuse("the URL is empty"));
        }
        if text.trim() != text {
            return Err(refuse("remove the surrounding spaces"));
        }
        let url = Url::parse(text)
            .map_err(|_| refuse("not an absolute URL (expected e.g. https://idp.example.com)"))?;
        check_transport(&url).map_err(refuse)?;
        if !url.username().is_empty() || url.password().is_some() {
            return Err(refuse("user information is not allowed in an issuer URL"));
        }
        if url.query().is_some() || url.fragment().is_some() || text.contains(['?', '#']) {
            return Err(refuse("an issuer URL has no query or fragment"));
        }
        // OpenID Connect Discovery §4: strip a terminating slash before appending the path.
        let discovery = Url::parse(&format!("{}{DISCOVERY_PATH}", text.trim_end_matches('/')))
            .map_err(|_| refuse("no discovery URL can be formed from it"))?;
        Ok(IssuerUrl {
            text: text.to_owned(),
            discovery,
        })
    }

    /// The issuer exactly as configured: what `iss` must equal, and what RFC 9728 metadata lists
    /// under `authorization_servers`.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// `{issuer}/.well-known/openid-configuration`.
    pub fn discovery_url(&self) -> &Url {
        &self.discovery
    }
}

impl FromStr for IssuerUrl {
    type Err = ConfigError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        IssuerUrl::parse(text)
    }
}

impl fmt::Display for IssuerUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for IssuerUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IssuerUrl({})", self.text)
    }
}

/// Whether the verifier may fetch `url`: https anywhere, http only on a loopback address, where
/// nothing on the network can read or change the answer. Applied to issuers and to the
/// `jwks_uri` a discovery document names (redirects are not followed at all).
pub(crate) fn check_transport(url: &Url) -> Result<(), &'static str> {
    let Some(host) = url.host_str() else {
        return Err("the URL has no host");
    };
    match url.scheme() {
        "https" => Ok(()),
        "http" if is_loopback(host) => Ok(()),
        "http" => Err(
            "http is only allowed on a loopback address (127.0.0.1, [::1], localhost); use https",
        ),
        _ => Err("the scheme must be https (or http on a loopback address)"),
    }
}

/// `localhost`, `127.0.0.0/8` or `::1`. The name counts because resolvers map it to loopback
/// (RFC 6761 §6.3) and local providers are commonly reached under it.
fn is_loopback(host: &str) -> bool {
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let literal = host.trim_start_matches('[').trim_end_matches(']');
    literal.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(text: &str) -> &'static str {
        match IssuerUrl::parse(text) {
            Err(ConfigError::InvalidIssuer { reason, .. }) => reason,
            other => panic!("{text}: expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn https_and_loopback_http_issuers_are_kept_exactly_as_written() {
        for text in [
            "https://idp.example.com",
            "https://idp.example.com/",
            "https://idp.example.com/realms/acme",
            "http://127.0.0.1:8080/realms/test",
            "http://127.1.2.3",
            "http://[::1]:9000",
            "http://LOCALHOST:8080",
        ] {
            let issuer = IssuerUrl::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(issuer.as_str(), text);
        }
        assert_ne!(
            IssuerUrl::parse("https://idp.example.com").ok(),
            IssuerUrl::parse("https://idp.example.com/").ok()
        );
    }

    #[test]
    fn the_discovery_url_drops_a_terminating_slash() {
        for (issuer, discovery) in [
            (
                "https://idp.example.com",
                "https://idp.example.com/.well-known/openid-configuration",
            ),
            (
                "https://idp.example.com/realms/acme/",
                "https://idp.example.com/realms/acme/.well-known/openid-configuration",
            ),
        ] {
            let parsed = IssuerUrl::parse(issuer).unwrap_or_else(|e| panic!("{issuer}: {e}"));
            assert_eq!(parsed.discovery_url().as_str(), discovery);
        }
    }

    #[test]
    fn other_issuers_are_refused_with_the_fix() {
        assert!(reason("http://idp.example.com").contains("use https"));
        assert!(reason("http://10.0.0.1").contains("loopback"));
        assert!(reason("http://localhost.example.com").contains("loopback"));
        assert!(reason("ftp://idp.example.com").contains("scheme"));
        assert!(reason("idp.example.com").contains("absolute URL"));
        assert!(reason("https://user:pw@idp.example.com").contains("user information"));
        assert!(reason("https://idp.example.com/?realm=a").contains("query"));
        assert!(reason("https://idp.example.com/#x").contains("fragment"));
        assert!(reason(" https://idp.example.com").contains("spaces"));
        assert!(reason("").contains("empty"));
    }
}
