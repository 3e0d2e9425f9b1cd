//! The output budget: one result carries at most [`MAX_OUTPUT_CHARS`] characters (~6,000
//! tokens), so a huge page cannot flood the agent's context. Cut at a line end; callers append
//! their footers (paging, `offset=` hints) AFTER the cut so the footers survive it.

use std::borrow::Cow;

/// Characters per token, the reference's estimate.
pub const CHARS_PER_TOKEN: usize = 4;

/// The token budget of one result.
pub const MAX_OUTPUT_TOKENS: usize = 6_000;

/// The character budget of one result.
pub const MAX_OUTPUT_CHARS: usize = CHARS_PER_TOKEN * MAX_OUTPUT_TOKENS;

/// The note appended, on its own line, to a cut result.
pub const TRUNCATION_NOTE: &str = "Output truncated at the ~6000-token cap.";

/// `text` unchanged if it fits the budget; otherwise cut at the last line feed at or before
/// [`MAX_OUTPUT_CHARS`] characters (a hard cut there when there is none, or only at the very
/// start), followed by a line feed and [`TRUNCATION_NOTE`].
pub fn budgeted(text: &str) -> Cow<'_, str> {
    // Byte offset of the character at index MAX_OUTPUT_CHARS: `None` means the text fits.
    let Some((limit, at_limit)) = text.char_indices().nth(MAX_OUTPUT_CHARS) else {
        return Cow::Borrowed(text);
    };
    // The LF may sit exactly at the limit (`lastIndexOf('\n', MAX)` in the reference).
    let cut = if at_limit == '\n' {
        limit
    } else {
        match text[..limit].rfind('\n') {
            Some(0) | None => limit,
            Some(line_feed) => line_feed,
        }
    };
    let mut out = String::with_capacity(cut + 1 + TRUNCATION_NOTE.len());
    out.push_str(&text[..cut]);
    out.push('\n');
    out.push_str(TRUNCATION_NOTE);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_unchanged() {
        let text = "a\n".repeat(100);
        assert!(matches!(budgeted(&text), Cow::Borrowed(t) if t == text));
        let exact = "x".repeat(MAX_OUTPUT_CHARS);
        assert_eq!(budgeted(&exact), exact);
    }

    #[test]
    fn long_text_is_cut_at_the_last_line_end_with_the_note() {
        let line = format!("{}\n", "y".repeat(99));
        let text = line.repeat(300);
        let cut = budgeted(&text);
        let expected = format!("{}\n{TRUNCATION_NOTE}", &line.repeat(240)[..240 * 100 - 1]);
        assert_eq!(cut, expected);
    }

    #[test]
    fn a_line_feed_exactly_at_the_limit_is_the_cut() {
        let text = format!("{}\n{}", "a".repeat(MAX_OUTPUT_CHARS), "b".repeat(10));
        assert_eq!(
            budgeted(&text),
            format!("{}\n{TRUNCATION_NOTE}", "a".repeat(MAX_OUTPUT_CHARS))
        );
    }

    #[test]
    fn one_huge_line_is_hard_cut_counting_characters() {
        let text = format!("\n{}", "é".repeat(MAX_OUTPUT_CHARS + 5));
        let cut = budgeted(&text);
        let body = cut.strip_suffix(TRUNCATION_NOTE).unwrap_or_default();
        assert_eq!(body.chars().count(), MAX_OUTPUT_CHARS + 1);
        assert!(body.starts_with("\né") && body.ends_with("é\n"));
    }
}
