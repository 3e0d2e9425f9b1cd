//! The links tools print (`URL:`, `Download:`, `Compare:`), formed in one place from the public
//! base URL the server was started with (`serve --public-url`). Without one, tools print no link
//! rather than a guess an agent would pass on.
//!
//! Every tool calls [`link`]; how a link is made trustworthy (a short-lived signature over what it
//! shows, the user and an expiry, verified by the page that serves it) lives in this one function
//! body, so no tool forms a URL by hand.

use mcp_runtime::prelude::*;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use wiki_store::model::locale::Locale;
use wiki_store::model::version::Version;
use wiki_store::reference::DocumentReference;

/// Everything but RFC 3986's unreserved characters is encoded, in path segments and query values
/// alike: a page name with `/`, `?`, `#` or `%` stays one segment.
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// What a link shows.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Target<'a> {
    /// The read-only HTML view of a document row.
    View {
        /// The document.
        reference: &'a DocumentReference,
        /// A translation row, or `None` for the default row.
        locale: Option<&'a Locale>,
    },
    /// The bytes of an attachment's current version.
    #[expect(
        dead_code,
        reason = "get_attachment's Download: line uses it; the expectation fails once it does"
    )]
    Download {
        /// The document holding it.
        reference: &'a DocumentReference,
        /// The file name.
        name: &'a str,
    },
    /// The differences between two revisions of a row.
    Compare {
        /// The document.
        reference: &'a DocumentReference,
        /// A translation row, or `None` for the default row.
        locale: Option<&'a Locale>,
        /// The older revision.
        from: Version,
        /// The newer revision.
        to: Version,
    },
}

/// The absolute URL of `target` for the caller of `ctx`, or `None` when the server has no public
/// URL. `/wikis/<wiki>/<kind>/<space>/…/<page>[/<file>]` with each name percent-encoded.
pub(crate) fn link(ctx: &ToolContext, target: Target<'_>) -> Option<String> {
    let base = ctx.public_url()?.trim_end_matches('/');
    let (kind, reference) = match target {
        Target::View { reference, .. } => ("view", reference),
        Target::Download { reference, .. } => ("download", reference),
        Target::Compare { reference, .. } => ("compare", reference),
    };
    let mut url = format!("{base}/wikis/{}/{kind}", encode(reference.wiki().as_str()));
    for name in reference.space().names() {
        url.push('/');
        url.push_str(&encode(name));
    }
    url.push('/');
    url.push_str(&encode(reference.name()));
    let mut query: Vec<(&str, String)> = Vec::new();
    match target {
        Target::View { locale, .. } => {
            query.extend(locale.map(|locale| ("language", locale.to_string())));
        }
        Target::Download { name, .. } => {
            url.push('/');
            url.push_str(&encode(name));
        }
        Target::Compare {
            locale, from, to, ..
        } => {
            query.push(("from", from.to_string()));
            query.push(("to", to.to_string()));
            query.extend(locale.map(|locale| ("language", locale.to_string())));
        }
    }
    for (index, (key, value)) in query.iter().enumerate() {
        url.push(if index == 0 { '?' } else { '&' });
        url.push_str(key);
        url.push('=');
        url.push_str(&encode(value));
    }
    Some(url)
}

fn encode(component: &str) -> String {
    utf8_percent_encode(component, COMPONENT).to_string()
}

#[cfg(test)]
mod tests {
    use wiki_store::model::wiki::WikiId;

    use super::*;

    fn page(text: &str) -> DocumentReference {
        DocumentReference::parse(text, &WikiId::main()).unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn no_public_url_no_link() {
        let ctx = ToolContext::new(None, "main", false);
        let sandbox = page("Sandbox.WebHome");
        let target = Target::View {
            reference: &sandbox,
            locale: None,
        };
        assert_eq!(link(&ctx, target), None);
    }
}
