//! The `@@ edit N @@` echo of edit_document: each edit's changed places with three numbered
//! lines of context, as they read after the save, within [`ECHO_CHARS`] characters.
//!
//! Lines are found by binary search over the saved text's line starts (every Unicode line
//! terminator, as get_document numbers them), so ten thousand replacements cost ten thousand
//! lookups, not ten thousand scans of the text. A first block larger than the whole echo is
//! still shown, cut, with the lines that hold the rest, so the echo is never empty.

use std::fmt::Write as _;

use mcp_runtime::output::lines::{self, line_at, numbered_lines};

use super::apply::Applied;

/// Lines of context shown around each changed place.
const CONTEXT_LINES: usize = 3;

/// The budget of the `@@ edit N @@` echo, in characters.
pub(super) const ECHO_CHARS: usize = 2000;

/// `@@ edit N @@ (K replacements)` blocks with the changed lines and three lines of context,
/// as numbered in the saved text, within [`ECHO_CHARS`].
pub(super) fn echo(applied: &Applied) -> String {
    let lines: Vec<&str> = lines::split_lines(&applied.text)
        .into_iter()
        .map(|line| line.text)
        .collect();
    let starts = lines::line_starts(&applied.text);
    let mut out = String::new();
    let mut used = 0usize;
    for (index, count) in applied.counts.iter().enumerate() {
        let number = index + 1;
        let windows = windows(applied, &starts, lines.len(), number);
        let header = format!(
            "@@ edit {number} @@ ({count} replacement{})",
            if *count == 1 { "" } else { "s" }
        );
        let block = block(&header, &windows, &lines);
        let block_chars = block.chars().count();
        if used + block_chars < ECHO_CHARS {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&block);
            used += block_chars + 1;
            continue;
        }
        if out.is_empty() {
            out = cut_block(&header, &windows, &lines);
            if number < applied.counts.len() {
                out.push_str("\n(further changes omitted)");
            }
        } else {
            out.push_str("\n(further changes omitted)");
        }
        return out;
    }
    out
}

/// The 0-based line ranges to show for edit `number`: its places with context, merged when
/// they touch, in order.
fn windows(
    applied: &Applied,
    starts: &[usize],
    total: usize,
    number: usize,
) -> Vec<(usize, usize)> {
    let mut windows: Vec<(usize, usize)> = Vec::new();
    if total == 0 {
        return windows;
    }
    for (_, place) in applied.places.iter().filter(|(n, _)| *n == number) {
        let first = line_at(starts, place.start) - 1;
        let last = line_at(starts, place.end.saturating_sub(1).max(place.start)) - 1;
        let from = first.saturating_sub(CONTEXT_LINES);
        let to = (last + CONTEXT_LINES).min(total - 1);
        match windows.last_mut() {
            Some(window) if from <= window.1 + 1 => window.1 = window.1.max(to),
            _ => windows.push((from, to)),
        }
    }
    windows
}

/// The whole block: the header, then each window's numbered lines.
fn block(header: &str, windows: &[(usize, usize)], lines: &[&str]) -> String {
    let mut block = header.to_owned();
    if windows.is_empty() {
        block.push_str("\n(merged into a later edit's change)");
    }
    for &(from, to) in windows {
        if let Some(shown) = lines.get(from..=to) {
            block.push('\n');
            block.push_str(&numbered_lines(shown.iter().copied(), from + 1));
        }
    }
    block
}

/// A first block larger than the echo: as many of its lines as fit (the first one cut if even
/// it does not), then where the rest is.
fn cut_block(header: &str, windows: &[(usize, usize)], lines: &[&str]) -> String {
    let mut out = header.to_owned();
    // Room for the closing note.
    let budget = ECHO_CHARS - 200;
    let mut used = out.chars().count();
    let mut rest_from = None;
    'windows: for &(from, to) in windows {
        for number in from..=to {
            let line = lines.get(number).copied().unwrap_or_default();
            let numbered = numbered_lines([line], number + 1);
            let chars = numbered.chars().count();
            if used + 1 + chars <= budget {
                out.push('\n');
                out.push_str(&numbered);
                used += 1 + chars;
                continue;
            }
            if used + 1 + 20 < budget {
                // Part of the line: the characters that fit, marked as cut.
                let room = budget - used - 1 - 1;
                let cut: String = numbered.chars().take(room).collect();
                out.push('\n');
                out.push_str(&cut);
                out.push('…');
            }
            rest_from = Some((number + 1, windows.last().map_or(to, |w| w.1) + 1));
            break 'windows;
        }
    }
    if let Some((first, last)) = rest_from {
        let _ = write!(
            out,
            "\n(this change is longer than the {ECHO_CHARS}-character echo and was cut; read \
             lines {first}-{last} with get_document offset={first} limit={})",
            last - first + 1
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::Edit;
    use super::super::apply::apply;
    use super::*;

    fn edit(old: &str, new: &str, all: bool) -> Edit {
        Edit {
            old_string: old.to_owned(),
            new_string: new.to_owned(),
            replace_all: Some(all),
        }
    }

    fn applied(text: &str, edits: &[Edit]) -> Applied {
        apply(text, edits).unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn the_echo_shows_context_as_saved() {
        let text: String = (1..=20).map(|n| format!("line {n}\n")).collect();
        let shown = echo(&applied(&text, &[edit("line 10\n", "ten\nTEN\n", false)]));
        assert!(
            shown.starts_with("@@ edit 1 @@ (1 replacement)\n     7\tline 7\n"),
            "{shown}"
        );
        assert!(shown.contains("    10\tten\n    11\tTEN\n"), "{shown}");
        assert!(shown.ends_with("    14\tline 13"), "{shown}");
    }

    #[test]
    fn replace_all_windows_are_in_order_and_merged() {
        let text: String = (1..=20).map(|n| format!("line {n}\n")).collect();
        let shown = echo(&applied(
            &text,
            &[
                edit("line 1\n", "first\n", false),
                edit("line 2", "L2", true),
            ],
        ));
        // "line 2" occurs on lines 2 and 20: two windows, in order, numbered as saved.
        let numbers: Vec<&str> = shown
            .lines()
            .filter_map(|line| line.split('\t').next())
            .map(str::trim)
            .filter(|n| n.parse::<usize>().is_ok())
            .collect();
        assert_eq!(
            numbers,
            [
                "1", "2", "3", "4", "1", "2", "3", "4", "5", "17", "18", "19", "20"
            ]
        );
        assert!(
            shown.contains("     2\tL2\n") && shown.ends_with("    20\tL20"),
            "{shown}"
        );
    }

    #[test]
    fn a_long_echo_is_cut() {
        let text: String = (1..=300)
            .map(|n| format!("{} {n}\n", "x".repeat(40)))
            .collect();
        let edits: Vec<Edit> = (1..=30)
            .map(|n| edit(&format!(" {}\n", n * 10), &format!(" changed {n}\n"), false))
            .collect();
        let shown = echo(&applied(&text, &edits));
        assert!(shown.chars().count() <= ECHO_CHARS + 30);
        assert!(shown.ends_with("(further changes omitted)"), "{shown}");
    }

    #[test]
    fn a_first_change_larger_than_the_echo_is_shown_cut_with_where_the_rest_is() {
        let text: String = (1..=10).map(|n| format!("row {n}\n")).collect();
        let long: String = (1..=200).map(|n| format!("new line {n}\n")).collect();
        let shown = echo(&applied(
            &text,
            &[edit("row 5\n", &long, false), edit("row 9", "nine", false)],
        ));
        assert!(
            shown.starts_with("@@ edit 1 @@ (1 replacement)\n     2\trow 2\n"),
            "{shown}"
        );
        assert!(shown.contains("     5\tnew line 1\n"), "{shown}");
        assert!(shown.chars().count() <= ECHO_CHARS + 30, "{shown}");
        assert!(
            shown.contains("was cut; read lines") && shown.contains("with get_document offset="),
            "{shown}"
        );
        assert!(shown.ends_with("\n(further changes omitted)"), "{shown}");
        // One line longer than the whole echo: its start is shown, marked as cut.
        let one_line = echo(&applied("a\nb\n", &[edit("a", &"y".repeat(5_000), false)]));
        assert!(one_line.contains("     1\tyyyy"), "{one_line}");
        assert!(one_line.contains("…\n(this change is longer"), "{one_line}");
        assert!(
            one_line.ends_with("read lines 1-2 with get_document offset=1 limit=2)"),
            "{one_line}"
        );
    }

    #[test]
    fn ten_thousand_replacements_echo_within_the_budget() {
        let text = "ab\n".repeat(10_000);
        let shown = echo(&applied(&text, &[edit("a", "c", true)]));
        assert!(shown.starts_with("@@ edit 1 @@ (10000 replacements)\n"));
        assert!(shown.chars().count() <= ECHO_CHARS);
    }
}
