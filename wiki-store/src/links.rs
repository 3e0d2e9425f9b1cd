//! Wiki-link extraction from Markdown content.
//!
//! A link or image whose destination is a wiki reference (`Sales.Q3`, `dev:Team.Home`) is a
//! document link; `attach:file.pdf` or `attach:Space.Page@file.pdf` is an attachment link. URLs
//! (anything with a known scheme or a `/`), anchors and autolinks are not wiki links. Relative
//! references resolve into the linking document's wiki; a `#fragment` is ignored. Markdown's
//! backslash escapes apply before the reference is parsed, so a dot inside a name is written `\\.`.

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag};

use crate::model::link::LinkTarget;
use crate::reference::{DocumentReference, RelativeReference};

/// URL schemes that are never wiki prefixes, even though they would parse as wiki ids.
const URL_SCHEMES: &[&str] = &[
    "http",
    "https",
    "ftp",
    "ftps",
    "sftp",
    "mailto",
    "tel",
    "file",
    "data",
    "javascript",
    "irc",
    "ircs",
    "ssh",
    "git",
    "news",
    "nntp",
    "xmpp",
    "urn",
    "about",
    "blob",
    "ws",
    "wss",
];

/// The prefix of attachment destinations.
const ATTACHMENT_PREFIX: &str = "attach:";

/// The Markdown dialect of our content: CommonMark with the GitHub extensions. Declared here,
/// the lowest crate that parses content, so link extraction, rendering, outlines and the
/// semantic chunker all read pages in one dialect.
pub fn markdown_options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_GFM
}

/// The wiki links of `content`, in authored order without repeats. Targets need not exist.
pub fn extract_links(content: &str, source: &DocumentReference) -> Vec<LinkTarget> {
    let mut links = Vec::new();
    for event in Parser::new_ext(content, markdown_options()) {
        let (link_type, destination) = match event {
            Event::Start(
                Tag::Link {
                    link_type,
                    dest_url,
                    ..
                }
                | Tag::Image {
                    link_type,
                    dest_url,
                    ..
                },
            ) => (link_type, dest_url),
            _ => continue,
        };
        if matches!(link_type, LinkType::Autolink | LinkType::Email) {
            continue;
        }
        if let Some(target) = parse_destination(&destination, source)
            && !links.contains(&target)
        {
            links.push(target);
        }
    }
    links
}

/// The wiki target of one link destination, or `None` for URLs, anchors and malformed references.
pub fn parse_destination(destination: &str, source: &DocumentReference) -> Option<LinkTarget> {
    let destination = destination.split('#').next().unwrap_or_default();
    if destination.is_empty() || destination.contains('/') || destination.contains('?') {
        return None;
    }
    if let Some(rest) = destination.strip_prefix(ATTACHMENT_PREFIX) {
        return parse_attachment(rest, source);
    }
    if let Some((scheme, _)) = destination.split_once(':')
        && URL_SCHEMES
            .iter()
            .any(|known| known.eq_ignore_ascii_case(scheme))
    {
        return None;
    }
    let reference = RelativeReference::parse(destination)
        .ok()?
        .in_wiki(source.wiki());
    Some(LinkTarget::Document(reference))
}

fn parse_attachment(rest: &str, source: &DocumentReference) -> Option<LinkTarget> {
    let (document, name) = match rest.split_once('@') {
        Some((reference, name)) => (
            RelativeReference::parse(reference)
                .ok()?
                .in_wiki(source.wiki()),
            name,
        ),
        None => (source.clone(), rest),
    };
    (!name.is_empty()).then(|| LinkTarget::Attachment {
        document,
        name: name.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::wiki::WikiId;

    fn reference(input: &str) -> DocumentReference {
        DocumentReference::parse(input, &WikiId::main()).unwrap()
    }

    fn document(input: &str) -> LinkTarget {
        LinkTarget::Document(reference(input))
    }

    #[test]
    fn links_and_images_to_wiki_references_are_extracted_in_order() {
        let content = "See [the plan](Sales.Plan) and ![chart](attach:chart.png).\n\
                       Also [dev](dev:Team.Home#top), [again](Sales.Plan), [space](Marketing).\n\
                       | a | [cell](Table.Page) |\n|---|---|\n| b | c |\n";
        let source = reference("Sales.Q3");
        assert_eq!(
            extract_links(content, &source),
            vec![
                document("Sales.Plan"),
                LinkTarget::Attachment {
                    document: source.clone(),
                    name: "chart.png".into()
                },
                document("dev:Team.Home"),
                document("Marketing.WebHome"),
                document("Table.Page"),
            ]
        );
    }

    #[test]
    fn urls_anchors_and_autolinks_are_not_wiki_links() {
        let content = "[web](https://example.com) [mail](mailto:a@b.c) <https://x.org> [top](#intro) \
                       [rel](../other.md) [q](page?x=1) [tel](tel:123) `[code](Not.A.Link)`\n\n    [indented](Code.Block)\n";
        assert_eq!(extract_links(content, &reference("A.B")), vec![]);
    }

    #[test]
    fn attachments_of_other_documents_and_escaped_names() {
        // Markdown's own backslash escapes apply first: `\\.` in a destination is `\.` in the reference.
        let content =
            r"[f](attach:Docs.Manual@guide@v2.pdf) [g](<Release\\.Notes.v1\\.2>) [h](Plain\.Dots)";
        assert_eq!(
            extract_links(content, &reference("A.B")),
            vec![
                LinkTarget::Attachment {
                    document: reference("Docs.Manual"),
                    name: "guide@v2.pdf".into()
                },
                document(r"Release\.Notes.v1\.2"),
                document("Plain.Dots"),
            ]
        );
    }

    #[test]
    fn malformed_references_are_skipped() {
        assert_eq!(
            extract_links(
                "[x](A..B) [y](attach:) [z](Bad Wiki:Page.X)",
                &reference("A.B")
            ),
            vec![]
        );
    }
}
