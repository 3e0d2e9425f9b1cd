//! Line-oriented text: line-ending normalization and `cat -n` numbering.

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

/// Lines numbered as `cat -n` does: the 1-based number right-aligned in 6 columns, a TAB, the
/// line; joined by LF. `first` is the number of the first line (a window starting mid-page).
/// Agents must strip the prefix before quoting a line back in an edit.
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
}
