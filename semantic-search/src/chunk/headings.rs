//! Where a page's headings are, from the CommonMark parser (not a line regex: a `#` line in a
//! fenced code block is not a heading; a setext heading spans its text and its underline).

use std::ops::RangeInclusive;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// One heading of the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Heading {
    /// 1 to 6.
    pub(super) level: usize,
    /// The 0-based source lines the heading occupies (one for ATX, two or more for setext).
    pub(super) lines: RangeInclusive<usize>,
    /// The heading's text: inline markup dropped, link labels kept, whitespace collapsed.
    pub(super) title: String,
}

/// The Markdown dialect the store writes and parses: CommonMark with GitHub's extensions.
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_GFM
}

/// The headings of `source` (LF line endings), in order.
pub(super) fn headings(source: &str) -> Vec<Heading> {
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(source.match_indices('\n').map(|(index, _)| index + 1))
        .collect();
    // The 0-based line holding byte `offset`.
    let line_of = |offset: usize| line_starts.partition_point(|&start| start <= offset) - 1;
    let mut found = Vec::new();
    let mut open: Option<(usize, RangeInclusive<usize>, String)> = None;
    for (event, range) in Parser::new_ext(source, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                // The range ends past the heading's last byte (often on its newline).
                let last = range.end.saturating_sub(1).max(range.start);
                let lines = line_of(range.start)..=line_of(last);
                open = Some((level as usize, lines, String::new()));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, lines, title)) = open.take() {
                    found.push(Heading {
                        level,
                        lines,
                        title: title.split_whitespace().collect::<Vec<_>>().join(" "),
                    });
                }
            }
            Event::Text(text) | Event::Code(text) => {
                if let Some((_, _, title)) = open.as_mut() {
                    title.push_str(&text);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some((_, _, title)) = open.as_mut() {
                    title.push(' ');
                }
            }
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atx_and_setext_headings_with_their_lines_and_none_in_code() {
        let source = "# Guide\n\nintro\n\n## Install [now](Setup.WebHome)\n\n```\n# not a heading\n```\n\nSetext `code`\nover two\n---\n";
        let found: Vec<(usize, RangeInclusive<usize>, String)> = headings(source)
            .into_iter()
            .map(|h| (h.level, h.lines, h.title))
            .collect();
        assert_eq!(
            found,
            [
                (1, 0..=0, "Guide".to_owned()),
                (2, 4..=4, "Install now".to_owned()),
                (2, 10..=12, "Setext code over two".to_owned()),
            ]
        );
    }

    #[test]
    fn a_heading_on_the_last_line_without_newline_is_found() {
        let found = headings("text\n### End");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].lines, 1..=1);
    }
}
