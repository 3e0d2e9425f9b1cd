//! Where a page's headings are, from the CommonMark parser: a `#` line in a fenced code block is
//! not a heading, and a setext heading (`Title` over `===`) spans its text and its underline.
//! One walk for every reader of headings (get_document's outline, the semantic chunker), with
//! lines numbered as every line window numbers them, so "line N" means one line everywhere.

use std::ops::RangeInclusive;

use mcp_runtime::output::lines::{line_at, line_starts};
use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use super::options;

/// One heading of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// 1 to 6.
    pub level: usize,
    /// The 1-based lines the heading occupies (one for ATX, two or more for setext), split at
    /// every line terminator as `mcp_runtime::output::lines::split_lines` splits them.
    pub lines: RangeInclusive<usize>,
    /// The heading's text: inline markup dropped, link labels kept (targets dropped),
    /// whitespace collapsed.
    pub title: String,
}

/// The headings of `source` (line endings already normalized), in order.
pub fn headings(source: &str) -> Vec<Heading> {
    let starts = line_starts(source);
    let line_of = |offset: usize| line_at(&starts, offset);
    let mut found = Vec::new();
    let mut open: Option<(usize, RangeInclusive<usize>, String)> = None;
    for (event, range) in Parser::new_ext(source, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                // The range ends past the heading's last byte (often on its line terminator).
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

    fn found(source: &str) -> Vec<(usize, RangeInclusive<usize>, String)> {
        headings(source)
            .into_iter()
            .map(|heading| (heading.level, heading.lines, heading.title))
            .collect()
    }

    #[test]
    fn atx_and_setext_headings_with_their_lines_and_none_in_code() {
        let source = "# Guide\n\nintro\n\n## Install [now](Setup.WebHome)\n\n```\n# not a heading\n```\n\nSetext `code`\nover two\n---\n";
        assert_eq!(
            found(source),
            [
                (1, 1..=1, "Guide".to_owned()),
                (2, 5..=5, "Install now".to_owned()),
                (2, 11..=13, "Setext code over two".to_owned()),
            ]
        );
    }

    #[test]
    fn a_heading_on_the_last_line_without_newline_is_found() {
        assert_eq!(found("text\n### End"), [(3, 2..=2, "End".to_owned())]);
    }

    #[test]
    fn lines_are_counted_at_every_line_terminator_as_windows_count_them() {
        // U+2028 ends a line for a window, so the heading is on line 3, not 2.
        assert_eq!(
            found("one\u{2028}two\n# Three\n"),
            [(1, 3..=3, "Three".to_owned())]
        );
    }
}
