//! Wiki destinations in rendered Markdown: a `[label](Space.Page)`, `[label](dev:Space.Page)`,
//! `[file](attach:notes.pdf)` or `![alt](attach:logo.png)` names a wiki target, not a URL, so an
//! HTML renderer that hands it to a browser as is gets a relative link that opens nothing (and
//! a sanitizer drops `dev:` and `attach:` as unknown schemes). The renderer rewrites each
//! destination the store's link extraction reads as a wiki target
//! ([`wiki_store::links::parse_destination`], the same reading get_links shows) into the URL
//! its caller forms for that target; ordinary URLs and anchors stay as written.

use pulldown_cmark::{CowStr, Event, Tag};
use wiki_store::links::parse_destination;
use wiki_store::model::link::LinkTarget;
use wiki_store::reference::DocumentReference;

/// Rewrites, in place, the destination of every link and image of `events` that names a wiki
/// target of a page at `source` (relative references resolve against it) to what `resolve`
/// returns for that target, keeping the destination's `#fragment`. A target `resolve` has no URL
/// for keeps its destination.
pub fn resolve_wiki_links(
    events: &mut [Event<'_>],
    source: &DocumentReference,
    mut resolve: impl FnMut(&LinkTarget) -> Option<String>,
) {
    for event in events {
        let destination = match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => dest_url,
            _ => continue,
        };
        let Some(target) = parse_destination(destination, source) else {
            continue;
        };
        let Some(mut url) = resolve(&target) else {
            continue;
        };
        if let Some((_, fragment)) = destination.split_once('#')
            && !fragment.is_empty()
        {
            url.push('#');
            url.push_str(fragment);
        }
        *destination = CowStr::from(url);
    }
}

#[cfg(test)]
mod tests {
    use pulldown_cmark::Parser;
    use wiki_store::model::wiki::WikiId;

    use super::*;

    fn rewritten(source: &str) -> String {
        let page = DocumentReference::parse("Docs.Guide", &WikiId::main())
            .unwrap_or_else(|error| panic!("{error}"));
        let mut events: Vec<Event<'_>> = Parser::new_ext(source, super::super::options()).collect();
        resolve_wiki_links(&mut events, &page, |target| {
            Some(match target {
                LinkTarget::Document(reference) => format!("https://w/view/{reference}"),
                LinkTarget::Attachment { document, name } => {
                    format!("https://w/file/{document}/{name}")
                }
            })
        });
        let mut html = String::new();
        pulldown_cmark::html::push_html(&mut html, events.into_iter());
        html
    }

    #[test]
    fn wiki_targets_get_the_resolved_url_and_urls_stay() {
        let html = rewritten(
            "[a](Sales.Plan#Q3) [b](dev:Space.Page) [c](attach:notes.pdf) \
             ![d](attach:Other.Page@logo.png) [e](https://example.com/x) [f](#local)",
        );
        for expected in [
            "href=\"https://w/view/main:Sales.Plan#Q3\"",
            "href=\"https://w/view/dev:Space.Page\"",
            "href=\"https://w/file/main:Docs.Guide/notes.pdf\"",
            "src=\"https://w/file/main:Other.Page/logo.png\"",
            "href=\"https://example.com/x\"",
            "href=\"#local\"",
        ] {
            assert!(html.contains(expected), "{expected} in {html}");
        }
    }
}
