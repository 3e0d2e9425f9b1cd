//! The server's base URL: what links and client configurations use, and which Host is accepted.

use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;

use http::Uri;
use http::uri::{Authority, Scheme};
use wiki_store::model::wiki::WikiId;

use crate::Error;

/// Where clients reach the server: `scheme://authority[/prefix]`, without a trailing slash.
///
/// Built from `serve --public-url` (behind a reverse proxy, say) or from the bound address.
/// A public URL's authority is the one non-loopback `Host` the server accepts, so it is also the
/// DNS-rebinding allow-list; a bound address's is not (`is_public`). Held once, in
/// [`ServerSettings::public_url`](crate::ServerSettings::public_url): tools' links, the pages,
/// the admin page and the Host check all read it there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrl {
    scheme: Scheme,
    authority: Authority,
    prefix: String,
    /// From a public URL, not a bound address.
    public: bool,
    /// The URL as links start with it, shared by every call's context.
    text: Arc<str>,
}

impl BaseUrl {
    /// Parses a public base URL: `http` or `https`, a host, an optional path prefix; no query or
    /// fragment, no user info.
    pub fn parse(url: &str) -> Result<Self, Error> {
        let refuse = |reason| Error::InvalidPublicUrl {
            url: url.to_owned(),
            reason,
        };
        let uri: Uri = url
            .parse()
            .map_err(|_| refuse("not a URL (expected e.g. https://wiki.example.com)"))?;
        let scheme = uri
            .scheme()
            .cloned()
            .ok_or_else(|| refuse("missing the scheme (http:// or https://)"))?;
        if scheme != Scheme::HTTP && scheme != Scheme::HTTPS {
            return Err(refuse("the scheme must be http or https"));
        }
        let authority = uri
            .authority()
            .cloned()
            .ok_or_else(|| refuse("missing the host"))?;
        if authority.as_str().contains('@') {
            return Err(refuse("user information is not allowed"));
        }
        if uri.query().is_some() || url.contains('#') {
            return Err(refuse("a query or fragment is not allowed"));
        }
        let prefix = uri.path().trim_end_matches('/').to_owned();
        Ok(BaseUrl::new(scheme, authority, prefix, true))
    }

    fn new(scheme: Scheme, authority: Authority, prefix: String, public: bool) -> Self {
        let text = Arc::from(format!("{scheme}://{authority}{prefix}"));
        BaseUrl {
            scheme,
            authority,
            prefix,
            public,
            text,
        }
    }

    /// `http://<addr>`: the base URL of a server bound to `addr` with no public URL.
    pub fn for_address(addr: SocketAddr) -> Self {
        let authority = match addr {
            SocketAddr::V4(v4) => format!("{}:{}", v4.ip(), v4.port()),
            SocketAddr::V6(v6) => format!("[{}]:{}", v6.ip(), v6.port()),
        };
        // A socket address always forms a valid authority.
        let authority = Authority::try_from(authority.as_str())
            .unwrap_or_else(|_| Authority::from_static("127.0.0.1"));
        BaseUrl::new(Scheme::HTTP, authority, String::new(), false)
    }

    /// Whether this is a public URL (`serve --public-url`), whose host the server accepts,
    /// rather than the bound address.
    pub fn is_public(&self) -> bool {
        self.public
    }

    /// The URL as a shared string (what a call's context hands to link signers).
    pub(crate) fn shared(&self) -> Arc<str> {
        Arc::clone(&self.text)
    }

    /// The MCP endpoint of `wiki`.
    pub fn endpoint(&self, wiki: &WikiId) -> String {
        // Wiki ids are `[a-z0-9][a-z0-9_-]*`: nothing to percent-encode.
        format!("{self}/rest/wikis/{wiki}/aiLLM/mcp")
    }

    /// The RFC 9728 protected-resource metadata of `wiki`'s endpoint.
    pub fn resource_metadata(&self, wiki: &WikiId) -> String {
        format!("{}{}", self.endpoint(wiki), super::oauth::METADATA_SUFFIX)
    }

    /// `http` or `https`.
    pub fn scheme(&self) -> &Scheme {
        &self.scheme
    }

    /// The authority (`host[:port]`) clients use.
    pub fn authority(&self) -> &Authority {
        &self.authority
    }

    /// The path prefix clients see before the server's own paths (`/wiki-mcp` for
    /// `https://host/wiki-mcp/`, behind a proxy that strips it), or empty; never a trailing
    /// slash. Pages put it before every link, form action, redirect and cookie path they send.
    pub fn path_prefix(&self) -> &str {
        &self.prefix
    }

    /// The origin (`scheme://authority`) a browser on this site sends.
    pub fn origin(&self) -> String {
        format!("{}://{}", self.scheme, self.authority)
    }
}

impl fmt::Display for BaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wiki(id: &str) -> WikiId {
        WikiId::new(id).unwrap_or_else(|_| WikiId::main())
    }

    #[test]
    fn a_public_url_with_a_prefix_builds_endpoint_and_metadata_urls() -> Result<(), Error> {
        let base = BaseUrl::parse("https://wiki.example.com/xwiki/")?;
        assert_eq!(base.to_string(), "https://wiki.example.com/xwiki");
        assert_eq!(
            base.endpoint(&wiki("dev")),
            "https://wiki.example.com/xwiki/rest/wikis/dev/aiLLM/mcp"
        );
        assert_eq!(
            base.resource_metadata(&wiki("dev")),
            "https://wiki.example.com/xwiki/rest/wikis/dev/aiLLM/mcp/.well-known/oauth-protected-resource"
        );
        assert_eq!(base.origin(), "https://wiki.example.com");
        Ok(())
    }

    #[test]
    fn unusable_public_urls_are_refused_with_the_reason() {
        for (url, reason) in [
            (
                "wiki.example.com",
                "missing the scheme (http:// or https://)",
            ),
            ("ftp://wiki.example.com", "the scheme must be http or https"),
            (
                "https://u:p@wiki.example.com",
                "user information is not allowed",
            ),
            (
                "https://wiki.example.com/?a=b",
                "a query or fragment is not allowed",
            ),
        ] {
            match BaseUrl::parse(url) {
                Err(Error::InvalidPublicUrl { reason: got, .. }) => {
                    assert_eq!(got, reason, "{url}")
                }
                other => panic!("{url}: expected a refusal, got {other:?}"),
            }
        }
    }

    #[test]
    fn a_bound_address_gives_a_loopback_base_url() {
        let v4: SocketAddr = ([127, 0, 0, 1], 8080).into();
        assert_eq!(
            BaseUrl::for_address(v4).to_string(),
            "http://127.0.0.1:8080"
        );
        let v6: SocketAddr = (std::net::Ipv6Addr::LOCALHOST, 9).into();
        assert_eq!(BaseUrl::for_address(v6).to_string(), "http://[::1]:9");
    }
}
