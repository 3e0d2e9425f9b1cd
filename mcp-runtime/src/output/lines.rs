//! Line-oriented text: line-ending normalization, what ends a line, and `cat -n` numbering.
//!
//! A line ends at LF and at every other Unicode line terminator (VT, FF, NEL, U+2028 LINE
//! SEPARATOR, U+2029 PARAGRAPH SEPARATOR; CR and CRLF are normalized to LF first). Clients and
//! agents render those as line breaks, so a window that numbered lines on LF alone would let
//! stored text start an unnumbered line that reads like one of the tool's own. Every tool that
//! numbers, counts or windows lines splits them here, so line N means the same line everywhere.

use std::borrow::Cow;
use std::fmt::Write as _;

/// CRLF and lone CR become LF, so line numbers and edit strings mean the same on every client.
pub fn normalize_line_endings(text: &str) -> Cow<'_, str> {
    if text.contains('\r') {
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(text)
    }
}

/// Whether `c` ends a line: LF, VT, FF, NEL, U+2028 or U+2029 (CR is normalized to LF before
/// lines are split; on its own it also counts, so unnormalized text cannot hide a break).
pub fn is_line_terminator(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// One line of a text: its characters without the terminator, and the terminator when it is
/// not a plain LF (so a tool can say that the source breaks the line with, say, U+2028).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// The line's characters, terminator excluded.
    pub text: &'a str,
    /// The character that ends the line when it is not LF; `None` for LF and for a last line
    /// without a terminator.
    pub unusual_end: Option<char>,
}

/// The lines of `text` as a window reads them: split at every [line
/// terminator](is_line_terminator); a terminator at the very end ends the last line rather than
/// opening an empty one (as `cat -n` counts). An empty text has no lines.
pub fn split_lines(text: &str) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (index, c) in text.char_indices() {
        if is_line_terminator(c) {
            lines.push(Line {
                text: &text[start..index],
                unusual_end: (c != '\n').then_some(c),
            });
            start = index + c.len_utf8();
        }
    }
    if start < text.len() {
        lines.push(Line {
            text: &text[start..],
            unusual_end: None,
        });
    }
    lines
}

/// The byte offset at which each line of `text` starts, in the numbering of [`split_lines`]
/// (index 0 is line 1). With it a byte position maps to its line by binary search.
pub fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(
            text.char_indices()
                .filter(|&(_, c)| is_line_terminator(c))
                .map(|(index, c)| index + c.len_utf8()),
        )
        .filter(|&start| start < text.len() || start == 0)
        .collect()
}

/// The 1-based line holding byte `at` of the text whose [`line_starts`] are `starts`.
pub fn line_at(starts: &[usize], at: usize) -> usize {
    starts.partition_point(|&start| start <= at).max(1)
}

/// `U+2028 LINE SEPARATOR`-style names of the unusual terminators, for notes.
pub fn terminator_name(c: char) -> &'static str {
    match c {
        '\u{0B}' => "VT (U+000B)",
        '\u{0C}' => "FF (U+000C)",
        '\u{85}' => "NEL (U+0085)",
        '\u{2028}' => "LINE SEPARATOR (U+2028)",
        '\u{2029}' => "PARAGRAPH SEPARATOR (U+2029)",
        '\r' => "CR (U+000D)",
        _ => "LF (U+000A)",
    }
}

/// Lines numbered as `cat -n` does: the 1-based number right-aligned in 6 columns, a TAB, the
/// line; joined by LF. `first` is the number of the first line (a window starting mid-page).
/// Agents must strip the prefix before quoting a line back in an edit. The lines must not hold
/// a [line terminator](is_line_terminator) (split them with [`split_lines`]).
pub fn numbered_lines<'a>(lines: impl IntoIterator<Item = &'a str>, first: usize) -> String {
    let mut out = String::new();
    for (index, line) in lines.into_iter().enumerate() {
        if index > 0 {
            out.push('\n');
        }
        // Writing into a String cannot fail.
        let _ = write!(out, "{:>6}\t{line}", first + index);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_endings_become_line_feeds() {
        assert_eq!(normalize_line_endings("a\r\nb\rc\n\r\nd"), "a\nb\nc\n\nd");
        assert!(matches!(
            normalize_line_endings("a\nb"),
            Cow::Borrowed("a\nb")
        ));
    }

    #[test]
    fn numbering_is_cat_n() {
        assert_eq!(
            numbered_lines(["= Title =", "", "text"], 9),
            "     9\t= Title =\n    10\t\n    11\ttext"
        );
        assert_eq!(numbered_lines([], 1), "");
        assert_eq!(numbered_lines(["x"], 1_234_567), "1234567\tx");
    }

    #[test]
    fn every_unicode_line_terminator_ends_a_line() {
        let text = "a\u{0B}b\u{0C}c\u{85}d\u{2028}e\u{2029}f\ng";
        let lines = split_lines(text);
        let texts: Vec<&str> = lines.iter().map(|line| line.text).collect();
        assert_eq!(texts, ["a", "b", "c", "d", "e", "f", "g"]);
        let ends: Vec<Option<char>> = lines.iter().map(|line| line.unusual_end).collect();
        assert_eq!(
            ends,
            [
                Some('\u{0B}'),
                Some('\u{0C}'),
                Some('\u{85}'),
                Some('\u{2028}'),
                Some('\u{2029}'),
                None,
                None
            ]
        );
        // Numbered, no stored character can start a line without its number.
        let numbered = numbered_lines(lines.iter().map(|line| line.text), 1);
        assert_eq!(numbered.lines().count(), 7);
        assert!(!numbered.chars().any(|c| is_line_terminator(c) && c != '\n'));
    }

    #[test]
    fn a_final_terminator_ends_the_last_line() {
        let texts = |text| -> Vec<&str> { split_lines(text).iter().map(|l| l.text).collect() };
        assert_eq!(texts("a\n"), ["a"]);
        assert_eq!(texts("a\n\n"), ["a", ""]);
        assert_eq!(texts("a\u{2028}"), ["a"]);
        assert_eq!(texts(""), Vec::<&str>::new());
        assert_eq!(texts("\n"), [""]);
    }

    #[test]
    fn line_starts_agree_with_split_lines() {
        for text in ["", "a", "a\n", "a\nb", "a\u{2028}b\u{85}\nc\n", "\n\n"] {
            let starts = line_starts(text);
            assert_eq!(starts.len(), split_lines(text).len().max(1), "{text:?}");
            for (number, line) in split_lines(text).iter().enumerate() {
                let at = line.text.as_ptr() as usize - text.as_ptr() as usize;
                assert_eq!(line_at(&starts, at), number + 1, "{text:?}");
            }
        }
    }
}
