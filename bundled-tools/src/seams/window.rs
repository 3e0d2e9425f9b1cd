//! The line window (facts §3.1): the one way a tool shows part of a long text as numbered lines,
//! shared by get_document (range reads and headingless heads), get_history (version snapshots)
//! and get_attachment (text attachments).
//!
//! A window starts at `offset` (1-based, default 1) and ends at `offset + limit - 1` or at the
//! last line; the budget then cuts it to the longest run of lines whose numbered form fits in
//! [`MAX_OUTPUT_CHARS`], never below one line. The footer says which lines were shown and, when
//! the budget cut the request short, the `offset=` that continues exactly after the last line.

use std::fmt::Write as _;

use mcp_runtime::output::budget::{MAX_OUTPUT_CHARS, MAX_OUTPUT_TOKENS, budgeted};
use mcp_runtime::output::lines::{normalize_line_endings, numbered_lines};
use wiki_server::prelude::*;

/// The numbered lines of one window, and where it sits in the whole text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineWindow {
    /// The lines in `cat -n` form, joined by LF (no trailing LF).
    pub(crate) body: String,
    /// The first line shown (1-based).
    pub(crate) first: usize,
    /// The last line shown (1-based, inclusive).
    pub(crate) last: usize,
    /// How many lines the whole text has.
    pub(crate) total: usize,
    /// The last line the caller asked for, before the budget.
    requested_last: usize,
}

impl LineWindow {
    /// Whether the budget stopped the window before the line the caller asked for.
    pub(crate) fn was_cut(&self) -> bool {
        self.last < self.requested_last
    }

    /// `Showing lines a-b of n.`, followed, when the budget cut the window, by the offset that
    /// continues it.
    pub(crate) fn footer(&self) -> String {
        if self.total == 0 {
            return "The text is empty (0 lines).".to_owned();
        }
        let mut footer = format!(
            "Showing lines {}-{} of {}.",
            self.first, self.last, self.total
        );
        if self.was_cut() {
            let _ = write!(
                footer,
                " Output truncated at the ~{MAX_OUTPUT_TOKENS}-token cap; continue with offset={}.",
                self.last + 1
            );
        }
        footer
    }

    /// The body and its footer on the next line: what a tool prints under its header.
    pub(crate) fn with_footer(&self) -> String {
        let mut out = String::with_capacity(self.body.len() + 100);
        out.push_str(&self.body);
        if !self.body.is_empty() {
            out.push('\n');
        }
        out.push_str(&self.footer());
        out
    }
}

/// The lines of `text` as a window reads them: line endings normalized, a final line feed
/// ending the last line rather than opening an empty one (as `cat -n` counts).
pub(crate) fn split_lines(text: &str) -> Vec<&str> {
    let text = text.strip_suffix('\n').unwrap_or(text);
    if text.is_empty() {
        Vec::new()
    } else {
        text.split('\n').collect()
    }
}

/// The window of `text` at `offset`/`limit` (the tool's arguments, unchecked), cut to the budget.
/// `what` names the text in the out-of-range error ("document", "revision 1.2").
pub(crate) fn line_window(
    text: &str,
    offset: Option<i64>,
    limit: Option<i64>,
    what: &str,
) -> Result<LineWindow, ToolError> {
    let (offset, limit) = check_range(offset, limit)?;
    let text = normalize_line_endings(text);
    let lines = split_lines(&text);
    let total = lines.len();
    let first = offset.unwrap_or(1);
    if first > total.max(1) {
        return Err(ToolError::new(format!(
            "Error: offset {first} exceeds the {what}'s length ({total} lines). Use an offset \
             from 1 to {}.",
            total.max(1)
        )));
    }
    let requested_last = match limit {
        Some(limit) => first.saturating_add(limit - 1).min(total),
        None => total,
    };
    let mut used = 0usize;
    let mut last = first.saturating_sub(1);
    for (index, line) in lines
        .iter()
        .enumerate()
        .take(requested_last)
        .skip(first.saturating_sub(1))
    {
        let number = index + 1;
        // The numbered form: the number (6 columns or wider), a TAB, the line, its LF.
        let width = number.to_string().len().max(6) + 1 + line.chars().count() + 1;
        if used + width > MAX_OUTPUT_CHARS && number > first {
            break;
        }
        used += width;
        last = number;
    }
    let shown = lines
        .get(first.saturating_sub(1)..last)
        .unwrap_or_default()
        .iter()
        .copied();
    // One oversized line is still shown (the window never stalls), but hard-cut by the budget.
    let body = budgeted(&numbered_lines(shown, first)).into_owned();
    Ok(LineWindow {
        body,
        first,
        last,
        total,
        requested_last,
    })
}

/// `offset` and `limit` must be positive; the messages say what line numbers mean.
fn check_range(
    offset: Option<i64>,
    limit: Option<i64>,
) -> Result<(Option<usize>, Option<usize>), ToolError> {
    let offset = match offset {
        Some(offset) if offset < 1 => {
            return Err(ToolError::new(format!(
                "Error: 'offset' must be at least 1 (got {offset}): it is the 1-based number of \
                 the first line to show."
            )));
        }
        other => other.map(|value| usize::try_from(value).unwrap_or(usize::MAX)),
    };
    let limit = match limit {
        Some(limit) if limit < 1 => {
            return Err(ToolError::new(format!(
                "Error: 'limit' must be at least 1 (got {limit}): it is how many lines to show; \
                 omit it to read to the end."
            )));
        }
        other => other.map(|value| usize::try_from(value).unwrap_or(usize::MAX)),
    };
    Ok((offset, limit))
}

#[cfg(test)]
mod tests {
    use mcp_runtime::output::budget::TRUNCATION_NOTE;

    use super::*;

    fn text(lines: usize, width: usize) -> String {
        (1..=lines)
            .map(|n| format!("{n:0width$}"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn ok(window: Result<LineWindow, ToolError>) -> LineWindow {
        window.unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn a_range_is_numbered_from_its_offset() {
        let window = ok(line_window("a\nb\nc\nd\n", Some(2), Some(2), "document"));
        assert_eq!(window.body, "     2\tb\n     3\tc");
        assert_eq!(window.footer(), "Showing lines 2-3 of 4.");
        let rest = ok(line_window("a\r\nb\rc", Some(2), None, "document"));
        assert_eq!(
            rest.with_footer(),
            "     2\tb\n     3\tc\nShowing lines 2-3 of 3."
        );
    }

    #[test]
    fn a_limit_past_the_end_stops_at_the_last_line() {
        let window = ok(line_window("a\nb", Some(2), Some(50), "document"));
        assert_eq!(window.footer(), "Showing lines 2-2 of 2.");
        assert!(!window.was_cut());
    }

    #[test]
    fn the_budget_cuts_and_the_continuation_really_continues() {
        // 5,000 lines of 20 characters: 28 numbered characters each.
        let source = text(5_000, 20);
        let first = ok(line_window(&source, None, None, "document"));
        assert_eq!(first.last, MAX_OUTPUT_CHARS / 28);
        assert!(first.body.chars().count() <= MAX_OUTPUT_CHARS);
        let next = first.last + 1;
        assert_eq!(
            first.footer(),
            format!(
                "Showing lines 1-{} of 5000. Output truncated at the ~6000-token cap; continue \
                 with offset={next}.",
                first.last
            )
        );
        let second = ok(line_window(&source, Some(next as i64), None, "document"));
        assert_eq!(second.first, next);
        assert!(second.body.starts_with(&format!("{next:>6}\t{next:020}")));
    }

    #[test]
    fn one_oversized_line_is_shown_hard_cut() {
        let source = format!("short\n{}\nafter", "x".repeat(MAX_OUTPUT_CHARS * 2));
        let window = ok(line_window(&source, Some(2), None, "document"));
        assert_eq!((window.first, window.last), (2, 2));
        assert!(window.body.ends_with(TRUNCATION_NOTE));
        assert!(window.footer().ends_with("continue with offset=3."));
    }

    #[test]
    fn bad_ranges_are_refused_with_the_fix() {
        let refused = |offset, limit| {
            line_window("a\nb", offset, limit, "document")
                .map_err(|error| error.message().to_owned())
                .err()
                .unwrap_or_default()
        };
        assert!(refused(Some(0), None).starts_with("Error: 'offset' must be at least 1 (got 0)"));
        assert!(refused(None, Some(-3)).starts_with("Error: 'limit' must be at least 1 (got -3)"));
        assert_eq!(
            refused(Some(3), None),
            "Error: offset 3 exceeds the document's length (2 lines). Use an offset from 1 to 2."
        );
    }

    #[test]
    fn an_empty_text_has_no_lines() {
        let window = ok(line_window("", None, None, "document"));
        assert_eq!(window.with_footer(), "The text is empty (0 lines).");
        assert_eq!(split_lines("a\n"), ["a"]);
        assert_eq!(split_lines("a\n\n"), ["a", ""]);
    }
}
