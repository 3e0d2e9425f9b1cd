//! get_attachment's own text window (facts §1.8), unlike the line window of §3.1: `offset` counts
//! characters skipped (0-based), the header shares the budget, and a window may end inside a line
//! when a line is longer than what is left, which its footer says so the agent knows the next
//! window starts mid-line.

use std::fmt::Write as _;

use mcp_runtime::output::budget::{MAX_OUTPUT_CHARS, MAX_OUTPUT_TOKENS};
use wiki_server::prelude::*;

/// Room kept for the footer, so header, body and footer together stay within the budget.
const FOOTER_RESERVE: usize = 300;

/// One window of a text: the characters shown and the footer that says where they sit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TextWindow {
    /// The characters shown.
    pub(super) body: String,
    /// `Showing characters a-b of n.` and, when more follows, the offset that continues.
    pub(super) footer: String,
}

/// The window of `text` (line endings already normalized) starting after `offset` characters,
/// sized to what `header_chars` leaves of the budget. `cap_note` is appended to the footer of
/// the LAST window (the text was capped before windowing).
pub(super) fn text_window(
    text: &str,
    offset: usize,
    header_chars: usize,
    cap_note: Option<&str>,
) -> Result<TextWindow, ToolError> {
    let total = text.chars().count();
    if total == 0 {
        return Ok(TextWindow {
            body: String::new(),
            footer: "The text is empty (0 characters).".to_owned(),
        });
    }
    if offset >= total {
        return Err(ToolError::new(format!(
            "Error: offset {offset} is past the end of the text ({total} characters). Use an \
             offset from 0 to {}.",
            total - 1
        )));
    }
    let room = MAX_OUTPUT_CHARS
        .saturating_sub(header_chars + FOOTER_RESERVE)
        .max(1);
    let start = byte_at(text, offset);
    let rest = &text[start..];
    let end_chars = (offset + room).min(total);
    let mut end = start + byte_at(rest, end_chars - offset);
    let mut mid_line = false;
    if end_chars < total {
        // Prefer to stop after the last full line of the window; with none, cut inside it.
        match text[start..end].rfind('\n') {
            Some(line_feed) => end = start + line_feed + 1,
            None => mid_line = true,
        }
    }
    let body = &text[start..end];
    let shown_end = offset + body.chars().count();
    let mut footer = format!("Showing characters {}-{shown_end} of {total}.", offset + 1);
    if shown_end < total {
        let _ = write!(
            footer,
            " Output truncated at the ~{MAX_OUTPUT_TOKENS}-token cap; continue with \
             offset={shown_end}."
        );
        if mid_line {
            footer.push_str(
                " The cut falls inside a line: the next window starts in the middle of it.",
            );
        }
    } else if let Some(note) = cap_note {
        footer.push(' ');
        footer.push_str(note);
    }
    Ok(TextWindow {
        body: body.trim_end_matches('\n').to_owned(),
        footer,
    })
}

/// The byte index of the `chars`-th character of `text` (its length when past the end).
fn byte_at(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(index, _)| index)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(text: &str, offset: usize, header: usize) -> TextWindow {
        text_window(text, offset, header, None).unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn a_short_text_comes_whole() {
        let shown = window("line one\nline two\n", 0, 100);
        assert_eq!(shown.body, "line one\nline two");
        assert_eq!(shown.footer, "Showing characters 1-18 of 18.");
        let skipped = window("line one\nline two\n", 5, 100);
        assert_eq!(skipped.body, "one\nline two");
        assert_eq!(skipped.footer, "Showing characters 6-18 of 18.");
    }

    #[test]
    fn long_texts_stop_at_a_line_end_and_continue_exactly() {
        let text = "0123456789\n".repeat(5_000);
        let first = window(&text, 0, 1_000);
        let next = first.body.chars().count() + 1;
        assert!(
            first
                .footer
                .ends_with(&format!("continue with offset={next}."))
        );
        assert!(first.body.chars().count() + 1_000 + FOOTER_RESERVE <= MAX_OUTPUT_CHARS);
        let second = window(&text, next, 1_000);
        assert!(second.body.starts_with("0123456789\n"));
    }

    #[test]
    fn one_huge_line_is_cut_inside_with_its_own_note() {
        let text = "é".repeat(MAX_OUTPUT_CHARS * 2);
        let first = window(&text, 0, 0);
        let shown = first.body.chars().count();
        assert_eq!(shown, MAX_OUTPUT_CHARS - FOOTER_RESERVE);
        assert!(
            first.footer.ends_with(
                "The cut falls inside a line: the next window starts in the middle of it."
            )
        );
        let last = window(&text, shown * 2, 0);
        assert_eq!(
            last.footer,
            format!(
                "Showing characters {}-{} of {}.",
                shown * 2 + 1,
                text.chars().count(),
                text.chars().count()
            )
        );
    }

    #[test]
    fn the_cap_note_is_on_the_last_window_only() {
        let note = Some("The text was capped.");
        let last = text_window("abc", 0, 0, note).unwrap_or_else(|e| panic!("{e}"));
        assert!(last.footer.ends_with("The text was capped."));
        let past = text_window("abc", 3, 0, note);
        assert_eq!(
            past.map_err(|e| e.message().to_owned()),
            Err(
                "Error: offset 3 is past the end of the text (3 characters). Use an offset from 0 \
                 to 2."
                    .to_owned()
            )
        );
    }
}
