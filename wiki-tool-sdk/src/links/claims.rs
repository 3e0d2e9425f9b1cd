//! What a link shows and to whom: its URL form (formatting and parsing in one place, so the
//! tools that print links and the pages that serve them cannot disagree) and the exact bytes the
//! signature covers.
//!
//! `<base>/wikis/<wiki>/<kind>/<space>/…/<page>[/<file>]?<shown>&via=<endpoint>&user=<name>
//! &expires=<unix seconds>&sig=<signature>`, every path segment and value percent-encoded.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use wiki_store::Clock;
use wiki_store::model::locale::Locale;
use wiki_store::model::version::Version;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::{DocumentReference, SpacePath};

use super::key::{LINK_TTL, LinkKey};

/// Everything but RFC 3986's unreserved characters is encoded: a page name with `/`, `?`, `#`,
/// `&` or `%` stays one segment or one value.
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The page a link opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkPage {
    /// The read-only HTML view of a document row (`None`: the default row).
    View {
        /// A translation, or `None` for the default row.
        locale: Option<Locale>,
    },
    /// The bytes of an attachment's current version.
    Download {
        /// The file name.
        name: String,
    },
    /// The differences between two revisions of a row.
    Compare {
        /// A translation, or `None` for the default row.
        locale: Option<Locale>,
        /// The older revision.
        from: Version,
        /// The newer revision.
        to: Version,
    },
}

impl LinkPage {
    fn kind(&self) -> &'static str {
        match self {
            LinkPage::View { .. } => "view",
            LinkPage::Download { .. } => "download",
            LinkPage::Compare { .. } => "compare",
        }
    }
}

/// A link's claims: the page, the document, who it was issued to, through which endpoint, and
/// until when. Signed as a whole by [`LinkClaims::url`], checked as a whole by
/// [`LinkClaims::from_url`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkClaims {
    /// What the link shows.
    pub page: LinkPage,
    /// The document (wiki-qualified).
    pub reference: DocumentReference,
    /// The wiki whose endpoint issued the link: rights are re-checked as a call there would be
    /// (its reach and space filter).
    pub endpoint: WikiId,
    /// The user it was issued to; `None` for the guest.
    pub user: Option<String>,
    /// Unix seconds after which the link is refused.
    pub expires: u64,
}

/// Why a link is refused. The page answers 403 for all of them alike, so a prober learns
/// nothing from the difference; the variants exist for logs and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// The URL is not of the link form (path, parameters, names).
    #[error("malformed link")]
    Malformed,
    /// The signature does not match what the link shows.
    #[error("bad link signature")]
    BadSignature,
    /// The link is past its expiry.
    #[error("expired link")]
    Expired,
}

impl LinkClaims {
    /// Claims for `page` of `reference`, issued now by `clock` (the store's, which a user's
    /// creation is compared with) to `user` through `endpoint`, valid for [`LINK_TTL`].
    pub fn issue(
        page: LinkPage,
        reference: DocumentReference,
        endpoint: WikiId,
        user: Option<String>,
        clock: &Clock,
    ) -> Self {
        Self {
            page,
            reference,
            endpoint,
            user,
            expires: unix_seconds(clock).saturating_add(LINK_TTL.as_secs()),
        }
    }

    /// The signed absolute URL under `base` (no trailing slash needed).
    pub fn url(&self, base: &str, key: &LinkKey) -> String {
        let mut url = base.trim_end_matches('/').to_owned();
        url.push_str(&self.path());
        let signature = key.sign(&self.message());
        let mut query = self.shown_query();
        query.push(("via", self.endpoint.as_str().to_owned()));
        if let Some(user) = &self.user {
            query.push(("user", user.clone()));
        }
        query.push(("expires", self.expires.to_string()));
        query.push(("sig", signature));
        for (index, (name, value)) in query.iter().enumerate() {
            url.push(if index == 0 { '?' } else { '&' });
            url.push_str(name);
            url.push('=');
            url.push_str(&encode(value));
        }
        url
    }

    /// The claims of a request's `path` (from `/wikis/` on) and `query`, verified with `key`
    /// and against `clock`: `Malformed`, then `BadSignature`, then `Expired`.
    pub fn from_url(
        path: &str,
        query: Option<&str>,
        key: &LinkKey,
        clock: &Clock,
    ) -> Result<Self, LinkError> {
        let claims = Self::parse(path, query.unwrap_or_default())?;
        let signature = param(query.unwrap_or_default(), "sig")?.ok_or(LinkError::Malformed)?;
        if !key.verify(&claims.message(), &signature) {
            return Err(LinkError::BadSignature);
        }
        if unix_seconds(clock) > claims.expires {
            return Err(LinkError::Expired);
        }
        Ok(claims)
    }

    /// `/wikis/<wiki>/<kind>/<space>/…/<page>[/<file>]`.
    fn path(&self) -> String {
        let mut path = format!(
            "/wikis/{}/{}",
            encode(self.reference.wiki().as_str()),
            self.page.kind()
        );
        let names = self
            .reference
            .space()
            .names()
            .iter()
            .map(String::as_str)
            .chain([self.reference.name()]);
        for name in names {
            path.push('/');
            path.push_str(&encode(name));
        }
        if let LinkPage::Download { name } = &self.page {
            path.push('/');
            path.push_str(&encode(name));
        }
        path
    }

    /// The parameters that say what is shown (besides the path).
    fn shown_query(&self) -> Vec<(&'static str, String)> {
        let mut query = Vec::new();
        match &self.page {
            LinkPage::View { locale } => {
                query.extend(locale.as_ref().map(|l| ("language", l.to_string())));
            }
            LinkPage::Download { .. } => {}
            LinkPage::Compare { locale, from, to } => {
                query.push(("from", from.to_string()));
                query.push(("to", to.to_string()));
                query.extend(locale.as_ref().map(|l| ("language", l.to_string())));
            }
        }
        query
    }

    /// The bytes the signature covers: a version tag, then every claim length-prefixed, so no
    /// two different claim sets share an encoding.
    fn message(&self) -> Vec<u8> {
        let mut message = b"wiki-mcp link v1".to_vec();
        let mut field = |value: &str| {
            message.extend_from_slice(&(value.len() as u64).to_be_bytes());
            message.extend_from_slice(value.as_bytes());
        };
        field(self.page.kind());
        field(self.reference.wiki().as_str());
        field(&self.reference.space().names().len().to_string());
        for name in self.reference.space().names() {
            field(name);
        }
        field(self.reference.name());
        match &self.page {
            LinkPage::View { locale } => field(&optional(locale)),
            LinkPage::Download { name } => field(name),
            LinkPage::Compare { locale, from, to } => {
                field(&optional(locale));
                field(&from.to_string());
                field(&to.to_string());
            }
        }
        field(self.endpoint.as_str());
        field(
            &self
                .user
                .as_ref()
                .map_or_else(String::new, |user| format!("u:{user}")),
        );
        field(&self.expires.to_string());
        message
    }

    /// The unverified claims of a URL.
    fn parse(path: &str, query: &str) -> Result<Self, LinkError> {
        let rest = path.strip_prefix("/wikis/").ok_or(LinkError::Malformed)?;
        let segments: Vec<String> = rest.split('/').map(decode).collect::<Result<_, _>>()?;
        let [wiki, kind, names @ ..] = segments.as_slice() else {
            return Err(LinkError::Malformed);
        };
        let wiki = WikiId::new(wiki).map_err(|_| LinkError::Malformed)?;
        let locale = match param(query, "language")? {
            Some(text) => Some(Locale::parse(&text).map_err(|_| LinkError::Malformed)?),
            None => None,
        };
        let (page, names) = match kind.as_str() {
            "view" => (LinkPage::View { locale }, names),
            "compare" => {
                let version = |name| -> Result<Version, LinkError> {
                    param(query, name)?
                        .ok_or(LinkError::Malformed)?
                        .parse()
                        .map_err(|_| LinkError::Malformed)
                };
                let page = LinkPage::Compare {
                    locale,
                    from: version("from")?,
                    to: version("to")?,
                };
                (page, names)
            }
            "download" => {
                let [names @ .., file] = names else {
                    return Err(LinkError::Malformed);
                };
                (LinkPage::Download { name: file.clone() }, names)
            }
            _ => return Err(LinkError::Malformed),
        };
        let [space @ .., name] = names else {
            return Err(LinkError::Malformed);
        };
        let space = SpacePath::new(space.iter().cloned()).map_err(|_| LinkError::Malformed)?;
        let reference =
            DocumentReference::new(wiki, space, name.clone()).map_err(|_| LinkError::Malformed)?;
        let endpoint = param(query, "via")?.ok_or(LinkError::Malformed)?;
        let expires = param(query, "expires")?
            .ok_or(LinkError::Malformed)?
            .parse()
            .map_err(|_| LinkError::Malformed)?;
        Ok(Self {
            page,
            reference,
            endpoint: WikiId::new(&endpoint).map_err(|_| LinkError::Malformed)?,
            user: param(query, "user")?,
            expires,
        })
    }
}

/// The seconds since the Unix epoch by `clock`.
fn unix_seconds(clock: &Clock) -> u64 {
    u64::try_from(clock.now().unix_timestamp()).unwrap_or(0)
}

fn optional(locale: &Option<Locale>) -> String {
    locale.as_ref().map_or_else(String::new, Locale::to_string)
}

fn encode(component: &str) -> String {
    utf8_percent_encode(component, COMPONENT).to_string()
}

fn decode(component: &str) -> Result<String, LinkError> {
    percent_decode_str(component)
        .decode_utf8()
        .map(|text| text.into_owned())
        .map_err(|_| LinkError::Malformed)
}

/// The one value of `name` in `query`; a repeated parameter is malformed (no ambiguity about
/// which one was signed).
fn param(query: &str, name: &str) -> Result<Option<String>, LinkError> {
    let mut found = None;
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if key == name {
            if found.is_some() {
                return Err(LinkError::Malformed);
            }
            found = Some(decode(value)?);
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use wiki_store::AdjustableClock;

    use super::*;

    fn reference(text: &str) -> DocumentReference {
        DocumentReference::parse(text, &WikiId::main()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn claims(page: LinkPage) -> LinkClaims {
        claims_at(page, &Clock::system())
    }

    fn claims_at(page: LinkPage, clock: &Clock) -> LinkClaims {
        LinkClaims::issue(
            page,
            reference("Sandbox.Sub/Dir.Page?x#y"),
            WikiId::main(),
            Some("alice & bob".to_owned()),
            clock,
        )
    }

    fn split(url: &str) -> (&str, Option<&str>) {
        let path = url.strip_prefix("https://wiki.example.org").unwrap_or(url);
        match path.split_once('?') {
            Some((path, query)) => (path, Some(query)),
            None => (path, None),
        }
    }

    #[test]
    fn every_page_round_trips_through_its_url() -> Result<(), LinkError> {
        let key = LinkKey::random();
        let pages = [
            LinkPage::View { locale: None },
            LinkPage::View {
                locale: Locale::parse("pt_BR").ok(),
            },
            LinkPage::Download {
                name: "a b/c%.zip".to_owned(),
            },
            LinkPage::Compare {
                locale: None,
                from: Version::FIRST,
                to: Version::FIRST.next(true),
            },
        ];
        for page in pages {
            let issued = claims(page);
            let url = issued.url("https://wiki.example.org/", &key);
            let (path, query) = split(&url);
            assert_eq!(
                LinkClaims::from_url(path, query, &key, &Clock::system())?,
                issued,
                "{url}"
            );
        }
        Ok(())
    }

    #[test]
    fn the_url_has_one_segment_per_name() {
        let url = claims(LinkPage::Download {
            name: "r.pdf".to_owned(),
        })
        .url("https://wiki.example.org", &LinkKey::random());
        assert!(url.starts_with(
            "https://wiki.example.org/wikis/main/download/Sandbox/Sub%2FDir/Page%3Fx%23y/r.pdf?via=main&user=alice%20%26%20bob&expires="
        ), "{url}");
    }

    #[test]
    fn altered_links_are_refused() {
        let key = LinkKey::random();
        let url = claims(LinkPage::View { locale: None }).url("", &key);
        let (path, query) = split(&url);
        let query = query.unwrap_or_default();
        let other_page = path.replace("Page%3Fx%23y", "Other");
        assert_eq!(
            LinkClaims::from_url(&other_page, Some(query), &key, &Clock::system()),
            Err(LinkError::BadSignature)
        );
        let other_user = query.replace("alice%20%26%20bob", "admin");
        assert_eq!(
            LinkClaims::from_url(path, Some(&other_user), &key, &Clock::system()),
            Err(LinkError::BadSignature)
        );
        let guest = query.replace("user=alice%20%26%20bob&", "");
        assert_eq!(
            LinkClaims::from_url(path, Some(&guest), &key, &Clock::system()),
            Err(LinkError::BadSignature)
        );
        let later = query.replace("expires=", "expires=9");
        assert_eq!(
            LinkClaims::from_url(path, Some(&later), &key, &Clock::system()),
            Err(LinkError::BadSignature)
        );
        let twice = format!("{query}&user=admin");
        assert_eq!(
            LinkClaims::from_url(path, Some(&twice), &key, &Clock::system()),
            Err(LinkError::Malformed)
        );
        assert_eq!(
            LinkClaims::from_url(path, Some(query), &LinkKey::random(), &Clock::system()),
            Err(LinkError::BadSignature)
        );
        assert_eq!(
            LinkClaims::from_url(path, None, &key, &Clock::system()),
            Err(LinkError::Malformed)
        );
    }

    #[test]
    fn expired_links_are_refused() {
        let key = LinkKey::random();
        let clock = AdjustableClock::new();
        let issued = claims_at(LinkPage::View { locale: None }, &clock.clock());
        let url = issued.url("", &key);
        let (path, query) = split(&url);
        clock.advance(LINK_TTL - Duration::from_secs(2));
        assert_eq!(
            LinkClaims::from_url(path, query, &key, &clock.clock()),
            Ok(issued)
        );
        clock.advance(Duration::from_secs(3));
        assert_eq!(
            LinkClaims::from_url(path, query, &key, &clock.clock()),
            Err(LinkError::Expired)
        );
    }
}
