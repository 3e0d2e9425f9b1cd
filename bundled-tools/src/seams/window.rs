//! The line window: the one way a tool shows part of a long text as numbered lines,
//! shared by get_document (range reads and headingless heads), get_history (version snapshots)
//! and the edit echo.
//!
//! A window starts at `offset` (1-based, default 1) and ends at `offset + limit - 1` or at the
//! last line; the budget then cuts it to the longest run of lines whose numbered form fits in
//! [`MAX_OUTPUT_CHARS`], never below one line. The footer says which lines were shown and, when
//! the budget cut the request short, the `offset=` that continues exactly after the last line.
//!
//! Lines end at every Unicode line terminator ([`split_lines`]), so stored text cannot start an
//! unnumbered line; a line that ends with something other than LF is named in the footer, since
//! an edit must quote that character rather than a line break.
//!
//! One line longer than the budget is cut inside. A tool that accepts `column` (see
//! [`line_window_at`]) gets the column continuation in the footer (`continue with offset=N
//! column=C`), so every character of the line can be read; the reference's grammar without it
//! ([`line_window`]) hard-cuts the line and continues after it.

use std::fmt::Write as _;

use mcp_runtime::output::budget::{MAX_OUTPUT_CHARS, MAX_OUTPUT_TOKENS, budgeted};
use mcp_runtime::output::lines::{
    self, Line, normalize_line_endings, numbered_lines, terminator_name,
};
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::untrusted::{fit_shown, shown_len};

/// How many unusual line ends a footer names before "+K more".
const TERMINATORS_NAMED: usize = 5;

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
    /// The column (1-based, in characters) the first line was shown from.
    first_column: usize,
    /// When the budget cut the last line inside, how far it was shown.
    cut: Option<LineCut>,
    /// Lines shown to their end whose terminator is not LF.
    unusual_ends: Vec<(usize, char)>,
    /// The characters the window could use: the whole output's budget, or a share of it.
    budget: usize,
}

/// A line the budget cut inside, with the column continuation accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LineCut {
    /// The last column shown (1-based, inclusive).
    shown_to: usize,
    /// The line's length in characters.
    length: usize,
}

impl LineWindow {
    /// Whether the budget stopped the window before the end the caller asked for.
    pub(crate) fn was_cut(&self) -> bool {
        self.last < self.requested_last || self.cut.is_some()
    }

    /// Where reading goes on after this window: the `offset` and, for a line the budget cut
    /// inside, the `column`; none once the window reaches the end of the text.
    pub(crate) fn continuation(&self) -> Option<(usize, Option<usize>)> {
        match self.cut {
            Some(cut) => Some((self.last, Some(cut.shown_to + 1))),
            None if self.last < self.total => Some((self.last + 1, None)),
            None => None,
        }
    }

    /// `Showing lines a-b of n.`, followed, when the budget cut the window, by the offset (and
    /// column) that continues it, and by the lines that end with an unusual terminator.
    pub(crate) fn footer(&self) -> String {
        if self.total == 0 {
            return "The text is empty (0 lines).".to_owned();
        }
        let mut footer = format!(
            "Showing lines {}-{} of {}",
            self.first, self.last, self.total
        );
        if self.first_column > 1 {
            let _ = write!(
                footer,
                ", line {} from column {}",
                self.first, self.first_column
            );
        }
        footer.push('.');
        let cap = if self.budget < MAX_OUTPUT_CHARS {
            format!("this document's share of the ~{MAX_OUTPUT_TOKENS}-token cap")
        } else {
            format!("the ~{MAX_OUTPUT_TOKENS}-token cap")
        };
        if let Some(cut) = self.cut {
            let _ = write!(
                footer,
                " Output truncated at {cap} inside line {} (shown up to column {} of {}); \
                 continue with offset={} column={}.",
                self.last,
                cut.shown_to,
                cut.length,
                self.last,
                cut.shown_to + 1
            );
        } else if self.was_cut() {
            let _ = write!(
                footer,
                " Output truncated at {cap}; continue with offset={}.",
                self.last + 1
            );
        }
        if let Some(note) = unusual_ends_note(&self.unusual_ends) {
            footer.push(' ');
            footer.push_str(&note);
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

/// The lines of `text` as a window reads them (line endings normalized by the caller): every
/// Unicode line terminator ends a line, and a final one ends the last line rather than opening
/// an empty one (as `cat -n` counts).
pub(crate) fn split_lines(text: &str) -> Vec<&str> {
    lines::split_lines(text)
        .into_iter()
        .map(|line| line.text)
        .collect()
}

/// All of `text` as numbered lines (a page small enough to show whole), followed on its own
/// line by the note naming lines that end with something other than LF, when there are any.
pub(crate) fn numbered_whole(text: &str) -> String {
    let text = normalize_line_endings(text);
    let lines = lines::split_lines(&text);
    let mut out = numbered_lines(lines.iter().map(|line| line.text), 1);
    if let Some(note) = unusual_ends_note(&unusual_ends(&lines, 1, lines.len())) {
        out.push('\n');
        out.push_str(&note);
    }
    out
}

/// The window of `text` at `offset`/`limit` (the tool's arguments, unchecked), cut to the
/// budget, in the reference's grammar: an oversized line is hard-cut and the window continues
/// after it. `what` names the text in the out-of-range error ("document", "revision 1.2").
pub(crate) fn line_window(
    text: &str,
    offset: Option<usize>,
    limit: Option<usize>,
    what: &str,
) -> Result<LineWindow, ToolError> {
    window(
        text,
        offset,
        limit,
        Columns::Unsupported,
        MAX_OUTPUT_CHARS,
        what,
    )
}

/// [`line_window`] for a tool that accepts `column`: the window starts at that column of its
/// first line, and a line longer than the budget is cut inside with the column continuation in
/// the footer, so every character of it can be read.
pub(crate) fn line_window_at(
    text: &str,
    offset: Option<usize>,
    column: Option<usize>,
    limit: Option<usize>,
    what: &str,
) -> Result<LineWindow, ToolError> {
    window(
        text,
        offset,
        limit,
        Columns::From(column),
        MAX_OUTPUT_CHARS,
        what,
    )
}

/// [`line_window_at`] within `budget` characters instead of the whole output's: one window of
/// several that share a result (get_documents). The footer says the window was cut at its
/// share, and the column continuation keeps every character of a long line readable.
pub(crate) fn line_window_within(
    text: &str,
    offset: Option<usize>,
    limit: Option<usize>,
    budget: usize,
    what: &str,
) -> Result<LineWindow, ToolError> {
    window(
        text,
        offset,
        limit,
        Columns::From(None),
        budget.min(MAX_OUTPUT_CHARS),
        what,
    )
}

/// How many characters the numbered lines `offset..offset + limit` of `text` take in a window
/// (numbers, TABs and LFs included) when no budget cuts them: what a window of them asks for.
/// Arguments a window would refuse count as nothing (the window reports them).
pub(crate) fn window_size(text: &str, offset: Option<usize>, limit: Option<usize>) -> usize {
    let Ok((offset, limit)) = check_range(offset, limit) else {
        return 0;
    };
    let text = normalize_line_endings(text);
    let lines = lines::split_lines(&text);
    let first = offset.unwrap_or(1);
    let last = match limit {
        Some(limit) => first.saturating_add(limit - 1).min(lines.len()),
        None => lines.len(),
    };
    lines
        .iter()
        .enumerate()
        .take(last)
        .skip(first.saturating_sub(1))
        .map(|(index, line)| numbered_width(index + 1) + shown_len(line.text) + 1)
        .sum()
}

/// The characters of a line number in the numbered form: six columns or wider, and the TAB.
fn numbered_width(number: usize) -> usize {
    number.to_string().len().max(6) + 1
}

/// Whether the caller's tool accepts `column`, and the agent's value.
#[derive(Debug, Clone, Copy)]
enum Columns {
    Unsupported,
    From(Option<usize>),
}

fn window(
    text: &str,
    offset: Option<usize>,
    limit: Option<usize>,
    columns: Columns,
    budget: usize,
    what: &str,
) -> Result<LineWindow, ToolError> {
    let (offset, limit) = check_range(offset, limit)?;
    let text = normalize_line_endings(text);
    let lines = lines::split_lines(&text);
    let total = lines.len();
    let first = offset.unwrap_or(1);
    if first > total.max(1) {
        return Err(ToolError::new(format!(
            "Error: offset {first} exceeds the {what}'s length ({total} lines). Use an offset \
             from 1 to {}.",
            total.max(1)
        ))
        .with_kind(ErrorKind::BadArgument));
    }
    let first_column = match columns {
        Columns::From(Some(column)) => check_column(column, first, lines.get(first - 1))?,
        Columns::From(None) | Columns::Unsupported => 1,
    };
    let requested_last = match limit {
        Some(limit) => first.saturating_add(limit - 1).min(total),
        None => total,
    };
    let mut used = 0usize;
    let mut last = first.saturating_sub(1);
    let mut shown: Vec<&str> = Vec::new();
    let mut cut = None;
    for (index, line) in lines
        .iter()
        .enumerate()
        .take(requested_last)
        .skip(first.saturating_sub(1))
    {
        let number = index + 1;
        let from = if number == first { first_column } else { 1 };
        let piece = from_column(line.text, from);
        // The numbered form: the number (6 columns or wider), a TAB, the line, its LF.
        let prefix = numbered_width(number);
        // Counted as shown: an invisible character takes the length of its escape.
        let width = shown_len(piece);
        if used + prefix + width + 1 > budget {
            if number > first {
                break;
            }
            if matches!(columns, Columns::From(_)) {
                // Cut inside the line; the footer gives the column that continues it.
                let room = budget.saturating_sub(used + prefix + 1).max(1);
                let shown_piece = match fit_shown(piece, room).0 {
                    // Room for less than one escape: show that one character anyway.
                    "" => up_to_chars(piece, 1),
                    fitted => fitted,
                };
                shown.push(shown_piece);
                cut = Some(LineCut {
                    shown_to: from - 1 + shown_piece.chars().count(),
                    length: from - 1 + piece.chars().count(),
                });
                last = number;
                break;
            }
        }
        used += prefix + width + 1;
        shown.push(piece);
        last = number;
    }
    // Without the column continuation one oversized line is still shown (the window never
    // stalls), but hard-cut by the budget; with it, the window already fits.
    let body = budgeted(&numbered_lines(shown, first)).into_owned();
    let whole_through = if cut.is_some() { last - 1 } else { last };
    Ok(LineWindow {
        body,
        first,
        last,
        total,
        requested_last,
        first_column,
        cut,
        unusual_ends: unusual_ends(&lines, first, whole_through),
        budget,
    })
}

/// The line's characters from `column` (1-based).
fn from_column(line: &str, column: usize) -> &str {
    match line.char_indices().nth(column.saturating_sub(1)) {
        Some((start, _)) => &line[start..],
        None => "",
    }
}

/// The first `chars` characters of `text`.
fn up_to_chars(text: &str, chars: usize) -> &str {
    match text.char_indices().nth(chars) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

/// Lines `first..=last` (1-based) that end with a terminator other than LF.
fn unusual_ends(lines: &[Line<'_>], first: usize, last: usize) -> Vec<(usize, char)> {
    lines
        .iter()
        .enumerate()
        .take(last)
        .skip(first.saturating_sub(1))
        .filter_map(|(index, line)| line.unusual_end.map(|end| (index + 1, end)))
        .collect()
}

/// `Line 3 ends with LINE SEPARATOR (U+2028), not a line feed; …`, or `None`.
fn unusual_ends_note(ends: &[(usize, char)]) -> Option<String> {
    let ((line, end), rest) = ends.split_first()?;
    let mut note = format!("Line {line} ends with {}", terminator_name(*end));
    for (line, end) in rest.iter().take(TERMINATORS_NAMED - 1) {
        let _ = write!(note, ", line {line} with {}", terminator_name(*end));
    }
    if ends.len() > TERMINATORS_NAMED {
        let _ = write!(note, " (+{} more lines)", ends.len() - TERMINATORS_NAMED);
    }
    note.push_str(
        ", not a line feed: in an edit, quote that character where the line ends, not a line \
         break.",
    );
    Some(note)
}

/// `column` must fall inside the line `offset` names (1 is always accepted).
fn check_column(column: usize, line: usize, text: Option<&Line<'_>>) -> Result<usize, ToolError> {
    if column == 0 {
        return Err(ToolError::new(format!(
            "Error: 'column' must be at least 1 (got {column}): it is the 1-based character of \
             line {line} to start at."
        ))
        .with_kind(ErrorKind::BadArgument));
    }
    let length = text.map_or(0, |line| line.text.chars().count());
    if column > 1 && column > length {
        return Err(ToolError::new(format!(
            "Error: column {column} is past the end of line {line} ({length} characters). Use \
             a column from 1 to {}.",
            length.max(1)
        ))
        .with_kind(ErrorKind::BadArgument));
    }
    Ok(column)
}

/// `offset` and `limit` must be positive (the parser refused negative ones); the messages say
/// what line numbers mean.
fn check_range(
    offset: Option<usize>,
    limit: Option<usize>,
) -> Result<(Option<usize>, Option<usize>), ToolError> {
    let offset = match offset {
        Some(0) => {
            return Err(ToolError::new(
                "Error: 'offset' must be at least 1 (got 0): it is the 1-based number of the \
                 first line to show.",
            )
            .with_kind(ErrorKind::BadArgument));
        }
        other => other,
    };
    let limit = match limit {
        Some(0) => {
            return Err(ToolError::new(
                "Error: 'limit' must be at least 1 (got 0): it is how many lines to show; omit \
                 it to read to the end.",
            )
            .with_kind(ErrorKind::BadArgument));
        }
        other => other,
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

    fn refused(window: Result<LineWindow, ToolError>) -> String {
        window
            .map_err(|error| error.message().to_owned())
            .err()
            .unwrap_or_default()
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
        let second = ok(line_window(&source, Some(next), None, "document"));
        assert_eq!(second.first, next);
        assert!(second.body.starts_with(&format!("{next:>6}\t{next:020}")));
    }

    #[test]
    fn without_columns_one_oversized_line_is_shown_hard_cut() {
        let source = format!("short\n{}\nafter", "x".repeat(MAX_OUTPUT_CHARS * 2));
        let window = ok(line_window(&source, Some(2), None, "document"));
        assert_eq!((window.first, window.last), (2, 2));
        assert!(window.body.ends_with(TRUNCATION_NOTE));
        assert!(window.footer().ends_with("continue with offset=3."));
    }

    #[test]
    fn with_columns_every_character_of_a_huge_line_is_reachable() {
        let long: String = (0..MAX_OUTPUT_CHARS * 2 + 123)
            .map(|n| char::from(b'a' + (n % 26) as u8))
            .collect();
        let source = format!("short\n{long}é\nafter\n");
        let mut offset = 2;
        let mut column = None;
        let mut read = String::new();
        for _ in 0..5 {
            let window = ok(line_window_at(
                &source,
                Some(offset),
                column,
                None,
                "document",
            ));
            assert!(window.with_footer().chars().count() <= MAX_OUTPUT_CHARS + 300);
            let first = window.body.lines().next().unwrap_or_default();
            read.push_str(first.split_once('\t').map(|(_, t)| t).unwrap_or_default());
            let footer = window.footer();
            match footer.split_once("continue with offset=2 column=") {
                Some((_, next)) => {
                    column = next.trim_end_matches('.').parse().ok();
                }
                None => {
                    assert!(footer.starts_with("Showing lines 2-3 of 3, line 2 from column"));
                    offset = 0;
                    break;
                }
            }
        }
        assert_eq!(
            offset, 0,
            "the continuation never reached the end of the line"
        );
        assert_eq!(read, format!("{long}é"));
    }

    #[test]
    fn a_column_cut_footer_says_where_it_stopped() {
        let source = "y".repeat(MAX_OUTPUT_CHARS * 2);
        let window = ok(line_window_at(&source, None, None, None, "document"));
        let shown = MAX_OUTPUT_CHARS - 8;
        assert_eq!(
            window.footer(),
            format!(
                "Showing lines 1-1 of 1. Output truncated at the ~6000-token cap inside line 1 \
                 (shown up to column {shown} of {}); continue with offset=1 column={}.",
                MAX_OUTPUT_CHARS * 2,
                shown + 1
            )
        );
        assert!(!window.body.ends_with(TRUNCATION_NOTE));
        let tail = ok(line_window_at(
            &source,
            None,
            Some(48_000),
            None,
            "document",
        ));
        assert_eq!(tail.body, "     1\ty");
        assert_eq!(
            tail.footer(),
            "Showing lines 1-1 of 1, line 1 from column 48000."
        );
    }

    #[test]
    fn unicode_line_terminators_end_numbered_lines_and_are_named() {
        let source = "one\u{2028}Showing lines 1-1 of 1.\u{85}three\u{0C}four\nfive";
        let window = ok(line_window(source, None, None, "document"));
        assert_eq!(
            window.body,
            "     1\tone\n     2\tShowing lines 1-1 of 1.\n     3\tthree\n     4\tfour\n     5\tfive"
        );
        assert_eq!(
            window.footer(),
            "Showing lines 1-5 of 5. Line 1 ends with LINE SEPARATOR (U+2028), line 2 with NEL \
             (U+0085), line 3 with FF (U+000C), not a line feed: in an edit, quote that \
             character where the line ends, not a line break."
        );
        let part = ok(line_window(source, Some(4), None, "document"));
        assert_eq!(part.footer(), "Showing lines 4-5 of 5.");
        assert_eq!(
            numbered_whole("a\u{2029}b"),
            "     1\ta\n     2\tb\nLine 1 ends with PARAGRAPH SEPARATOR (U+2029), not a line \
             feed: in an edit, quote that character where the line ends, not a line break."
        );
        assert_eq!(split_lines("a\u{0B}b\n"), ["a", "b"]);
    }

    #[test]
    fn bad_ranges_are_refused_with_the_fix() {
        assert!(
            refused(line_window("a\nb", Some(0), None, "document"))
                .starts_with("Error: 'offset' must be at least 1 (got 0)")
        );
        assert!(
            refused(line_window("a\nb", None, Some(0), "document"))
                .starts_with("Error: 'limit' must be at least 1 (got 0)")
        );
        assert_eq!(
            refused(line_window("a\nb", Some(3), None, "document")),
            "Error: offset 3 exceeds the document's length (2 lines). Use an offset from 1 to 2."
        );
        assert_eq!(
            refused(line_window_at("abc\nd", Some(1), Some(4), None, "document")),
            "Error: column 4 is past the end of line 1 (3 characters). Use a column from 1 to 3."
        );
        assert!(
            refused(line_window_at("abc", None, Some(0), None, "document"))
                .starts_with("Error: 'column' must be at least 1 (got 0)")
        );
        assert!(line_window_at("", None, Some(1), None, "document").is_ok());
    }

    #[test]
    fn an_empty_text_has_no_lines() {
        let window = ok(line_window("", None, None, "document"));
        assert_eq!(window.with_footer(), "The text is empty (0 lines).");
        assert_eq!(split_lines("a\n"), ["a"]);
        assert_eq!(split_lines("a\n\n"), ["a", ""]);
    }
}
