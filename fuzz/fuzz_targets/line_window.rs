//! The line window grammar (`bundled-tools/src/seams/window.rs`: get_document's, get_history's
//! and get_attachment's `offset`/`limit` windows), read back the way an agent reads it.
//!
//! Input: a first line `OFFSET LIMIT REPEAT` (each a number, `-` for absent; REPEAT, default 1,
//! repeats the text so small inputs reach the output budget), then the text.
//!
//! Properties: no input panics; a bad `offset`/`limit` is an `Error: ...` naming it; otherwise
//! the output is numbered lines, consecutive from the offset, then a footer whose numbers agree
//! with them, within the output budget; a window cut by the budget names the offset that
//! continues it; and following the footers from line 1 reads back the whole text, line for line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_runtime::output::budget::{MAX_OUTPUT_CHARS, TRUNCATION_NOTE};

/// The largest text a run builds (REPEAT is capped to stay under it): several times the output
/// budget, and small enough that following every window of it stays far within the timeout.
const MAX_TEXT_BYTES: usize = 64 * 1024;
/// Windows followed before the read-back stops checking (each one costs a pass over the text).
const MAX_WINDOWS: usize = 64;

/// What one printed window says.
#[derive(Debug)]
struct Printed {
    /// The shown lines, without their numbers.
    lines: Vec<String>,
    /// `Showing lines FIRST-LAST of TOTAL.`
    first: usize,
    last: usize,
    total: usize,
    /// The footer's `continue with offset=N`, if the budget cut the window.
    continue_at: Option<usize>,
    /// The budget hard-cut a single oversized line (its rest is not shown).
    line_cut: bool,
}

fn number(word: &str) -> Option<Option<usize>> {
    if word == "-" {
        Some(None)
    } else {
        word.parse().ok().map(Some)
    }
}

/// Parses a window as printed, asserting its grammar.
fn read(output: &str, offset: Option<usize>) -> Printed {
    let (body, footer) = output.rsplit_once('\n').unwrap_or(("", output));
    if footer == "The text is empty (0 lines)." {
        assert!(body.is_empty(), "{output:?}");
        return Printed {
            lines: Vec::new(),
            first: 1,
            last: 0,
            total: 0,
            continue_at: None,
            line_cut: false,
        };
    }
    let rest = footer
        .strip_prefix("Showing lines ")
        .unwrap_or_else(|| panic!("no footer in {output:?}"));
    let (range, rest) = rest.split_once(" of ").expect("footer range");
    let (first, last) = range.split_once('-').expect("footer range");
    let (total, rest) = rest.split_once('.').expect("footer total");
    // Last, a note naming the shown lines that end with a terminator other than LF.
    let rest = match rest.find(" Line ") {
        Some(start) => {
            let note = &rest[start..];
            assert!(
                note.ends_with(
                    ", not a line feed: in an edit, quote that character where the line \
                     ends, not a line break."
                ),
                "unexpected note {note:?}"
            );
            &rest[..start]
        }
        None => rest,
    };
    let continue_at = if rest.is_empty() {
        None
    } else {
        let offset = rest
            .strip_prefix(" Output truncated at the ~6000-token cap; continue with offset=")
            .and_then(|offset| offset.strip_suffix('.'))
            .unwrap_or_else(|| panic!("unexpected footer {footer:?}"));
        Some(offset.parse().expect("continuation offset"))
    };
    let (first, last, total): (usize, usize, usize) = (
        first.parse().expect("first"),
        last.parse().expect("last"),
        total.parse().expect("total"),
    );
    assert_eq!(first, offset.unwrap_or(1), "{footer}");
    assert!(first <= last && last <= total, "{footer}");

    let mut body_lines: Vec<&str> = body.split('\n').collect();
    let line_cut = body_lines.last() == Some(&TRUNCATION_NOTE);
    if line_cut {
        body_lines.pop();
        assert_eq!(
            first, last,
            "only a single oversized line is hard-cut: {footer}"
        );
    }
    let mut lines = Vec::with_capacity(body_lines.len());
    for (index, line) in body_lines.iter().enumerate() {
        let (shown_number, text) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("unnumbered line {line:?}"));
        assert!(shown_number.len() >= 6, "{shown_number:?}");
        assert_eq!(
            shown_number.trim_start().parse::<usize>().ok(),
            Some(first + index),
            "{line:?}"
        );
        lines.push(text.to_owned());
    }
    assert_eq!(lines.len(), last - first + 1, "{footer}");
    if let Some(next) = continue_at {
        assert_eq!(next, last + 1, "{footer}");
    }
    let budget = MAX_OUTPUT_CHARS + TRUNCATION_NOTE.len() + 1;
    assert!(
        body.chars().count() <= budget,
        "{} chars",
        body.chars().count()
    );
    Printed {
        lines,
        first,
        last,
        total,
        continue_at,
        line_cut,
    }
}

/// Every Unicode line terminator as LF: a text and the lines a window shows of it compare equal
/// under this whichever terminators the window splits lines on.
fn lines_of(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}' => '\n',
            c => c,
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let (header, text) = input.split_once('\n').unwrap_or((input, ""));
    let mut words = header.split(' ');
    let (Some(Some(offset)), Some(Some(limit))) =
        (words.next().map(number), words.next().map(number))
    else {
        return;
    };
    let repeat = match words.next().map(str::parse::<usize>) {
        None => 1,
        Some(Ok(repeat)) => repeat.clamp(1, MAX_TEXT_BYTES / text.len().max(1)),
        Some(Err(_)) => return,
    };
    let text = text.repeat(repeat);

    let window = bundled_tools::__fuzz_line_window(&text, offset, limit);
    let bad_offset = offset.is_some_and(|o| o == 0);
    let bad_limit = limit.is_some_and(|l| l == 0);
    let output = match window {
        Err(message) => {
            if bad_offset {
                assert!(
                    message.starts_with("Error: 'offset' must be at least 1"),
                    "{message}"
                );
            } else if bad_limit {
                assert!(
                    message.starts_with("Error: 'limit' must be at least 1"),
                    "{message}"
                );
            } else {
                assert!(message.starts_with("Error: offset "), "{message}");
                assert!(message.contains("Use an offset from 1 to"), "{message}");
            }
            return;
        }
        Ok(output) => output,
    };
    assert!(!bad_offset && !bad_limit, "{offset:?}/{limit:?} accepted");
    let printed = read(&output, offset);
    if printed.continue_at.is_none() && !printed.line_cut && printed.total > 0 {
        // Not cut: the window reaches what was asked for.
        let asked = limit.map_or(usize::MAX, |l| printed.first.saturating_add(l - 1));
        assert_eq!(
            printed.last,
            asked.min(printed.total),
            "{offset:?}/{limit:?}"
        );
    }

    // Read the whole text back by following the footers from line 1, as an agent would.
    let mut read_back: Vec<String> = Vec::new();
    let mut next = 1usize;
    for _ in 0..MAX_WINDOWS {
        let Ok(output) = bundled_tools::__fuzz_line_window(&text, Some(next), limit) else {
            panic!("offset {next} refused while reading back");
        };
        let window = read(&output, Some(next));
        if window.line_cut {
            return;
        }
        read_back.extend(window.lines);
        if window.last >= window.total {
            // A final terminator, whichever it is, ends the last line (it opens no empty one).
            let text = lines_of(&text.replace("\r\n", "\n"));
            assert_eq!(
                lines_of(&read_back.join("\n")),
                text.strip_suffix('\n').unwrap_or(&text),
                "read back through windows of {limit:?}"
            );
            return;
        }
        next = window.continue_at.unwrap_or(window.last + 1);
    }
});
