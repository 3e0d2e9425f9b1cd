//! The links tools print (`URL:`, `Download:`, `Compare:`), formed in one place from the public
//! base URL the server was started with (`serve --public-url`). Without one, tools print no link
//! rather than a guess an agent would pass on.
//!
//! Every tool calls [`link`]; how a link is made trustworthy (a short-lived signature over what it
//! shows, the user and an expiry, verified by the page that serves it) lives in this one function
//! body, so no tool forms a URL by hand.

use wiki_tool_sdk::links::LinkPage;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::document::SaveOutcome;
use wiki_tool_sdk::store::model::locale::Locale;
use wiki_tool_sdk::store::model::version::Version;
use wiki_tool_sdk::store::reference::DocumentReference;

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

/// The signed URL of `target` for the caller of `ctx`, or `None` when the server has no public
/// URL. The server forms and signs it ([`WikiContext::link`]): it expires, and the page it opens
/// re-checks the caller's view right.
pub(crate) fn link(ctx: &ToolContext, target: Target<'_>) -> Option<String> {
    let (page, reference) = match target {
        Target::View { reference, locale } => (
            LinkPage::View {
                locale: locale.cloned(),
            },
            reference,
        ),
        Target::Download { reference, name } => (
            LinkPage::Download {
                name: name.to_owned(),
            },
            reference,
        ),
        Target::Compare {
            reference,
            locale,
            from,
            to,
        } => (
            LinkPage::Compare {
                locale: locale.cloned(),
                from,
                to,
            },
            reference,
        ),
    };
    ctx.link(page, reference)
}

/// `View: <url>` after a write created the target row, `Compare: <url>` (the two versions) after
/// one updated it; `None` without a public URL or when nothing was saved.
pub(crate) fn review_line(
    ctx: &ToolContext,
    target: &WriteTarget,
    outcome: &SaveOutcome,
) -> Option<String> {
    let reference = target.reference();
    let locale = target.locale();
    match *outcome {
        SaveOutcome::Created { .. } => {
            link(ctx, Target::View { reference, locale }).map(|url| format!("View: {url}"))
        }
        SaveOutcome::Updated { previous, version } => link(
            ctx,
            Target::Compare {
                reference,
                locale,
                from: previous,
                to: version,
            },
        )
        .map(|url| format!("Compare: {url}")),
        SaveOutcome::Unchanged { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use wiki_tool_sdk::store::model::wiki::WikiId;

    use super::*;

    fn page(text: &str) -> DocumentReference {
        DocumentReference::parse(text, &WikiId::main()).unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn no_public_url_no_link() {
        let ctx = ToolContext::new(None);
        let sandbox = page("Sandbox.WebHome");
        let target = Target::View {
            reference: &sandbox,
            locale: None,
        };
        assert_eq!(link(&ctx, target), None);
    }
}
