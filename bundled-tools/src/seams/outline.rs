//! The heading outline of Markdown source: what get_document shows instead of
//! the content of a page too large for one result, with the line of each heading so that a
//! window (`offset=`) can read one part.
//!
//! Headings come from the CommonMark parser, not a line regex: a `#` inside a fenced code block
//! is not a heading, and setext headings (`Title` over `===`) are.

pub(crate) use wiki_tool_sdk::markdown::{Heading, headings};
use wiki_tool_sdk::untrusted::fragment;

/// The Markdown dialect of our content (the signed view page parses the same one).
pub(crate) use wiki_tool_sdk::markdown::options as markdown_options;

/// One outline line per heading: `2*(level-1)` spaces, `L<line>: <title>` (title guarded).
pub(crate) fn outline_lines(headings: &[Heading]) -> String {
    let mut out = String::new();
    for heading in headings {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&" ".repeat(2 * (heading.level.saturating_sub(1))));
        out.push('L');
        out.push_str(&heading.lines.start().to_string());
        out.push_str(": ");
        out.push_str(&fragment(&heading.title));
    }
    out
}

/// Runs of whitespace become one space; the ends are trimmed.
pub(crate) fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_come_from_the_parser_with_their_lines() {
        let source = "# Guide\n\nintro\n\n## Install [now](Setup.WebHome)\n\n```\n# not a heading\n```\n\nSetext `code`\n---\n";
        let found = headings(source);
        let summary: Vec<(usize, usize, &str)> = found
            .iter()
            .map(|h| (h.level, *h.lines.start(), h.title.as_str()))
            .collect();
        assert_eq!(
            summary,
            [
                (1, 1, "Guide"),
                (2, 5, "Install now"),
                (2, 11, "Setext code")
            ]
        );
        assert_eq!(
            outline_lines(&found),
            "L1: Guide\n  L5: Install now\n  L11: Setext code"
        );
    }

    #[test]
    fn heading_lines_count_every_line_terminator_as_windows_do() {
        let source = "intro\u{2028}more\u{85}still\n\n# Title\n";
        let found = headings(source);
        assert_eq!(found.first().map(|h| *h.lines.start()), Some(5));
        let lines = crate::seams::window::split_lines(source);
        assert_eq!(lines.get(4), Some(&"# Title"));
    }

    #[test]
    fn outline_titles_are_guarded() {
        let found = vec![Heading {
            level: 3,
            lines: 7..=7,
            title: format!("a\u{202E}b{}", "x".repeat(300)),
        }];
        let outline = outline_lines(&found);
        // The bidi override is left to the result's escape, which shows it.
        let shown = wiki_tool_sdk::untrusted::escape(&outline);
        assert!(shown.starts_with("    L7: a⟦U+202E⟧bxx"), "{shown}");
        assert!(outline.ends_with('…'));
    }
}
