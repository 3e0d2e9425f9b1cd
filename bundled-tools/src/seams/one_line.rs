//! Page text shown inside one line of a listing (a tree node's title, a search snippet): unlike
//! a field echo, which only loses its line feeds, a run of line breaks, separators or other
//! whitespace in page text becomes ONE space, so "first line\nsecond line" stays readable as
//! "first line second line" and still cannot open a line of its own. Invisible characters are
//! kept: the result shows them as escapes ([`wiki_tool_sdk::untrusted`]).

use mcp_runtime::output::guard::FRAGMENT_MAX_CHARS;
use wiki_tool_sdk::untrusted::fragment;

/// `text` on one line: runs of whitespace (line feeds, separators, tabs, spaces) collapsed to
/// one space, trimmed, then capped like every echo ([`fragment`]: 200 characters and `…`).
pub(crate) fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(FRAGMENT_MAX_CHARS * 4));
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            pending_space = !out.is_empty();
        } else {
            if pending_space {
                out.push(' ');
                pending_space = false;
            }
            out.push(c);
        }
    }
    fragment(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breaks_and_separators_become_one_space() {
        assert_eq!(
            one_line("  first\r\n\n second\u{2028}\u{2029}third\tfourth \n"),
            "first second third fourth"
        );
        assert_eq!(one_line("a\u{202E}b\u{200B}c"), "a\u{202E}b\u{200B}c");
        assert_eq!(one_line("\n\n"), "");
    }

    #[test]
    fn long_text_is_capped_like_an_echo() {
        let long = format!("{}\n{}", "a".repeat(150), "b".repeat(150));
        let line = one_line(&long);
        assert_eq!(line.chars().count(), FRAGMENT_MAX_CHARS + 1);
        assert!(line.ends_with('…') && !line.contains('\n'));
    }
}
