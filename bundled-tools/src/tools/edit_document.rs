//! `edit_document` (facts §1.12): ordered exact-string edits applied in memory to the row as read,
//! then saved once through the write seam, compare-and-set on the version they were applied to
//! (so a concurrent save is never overwritten, with or without the agent's base_version).
//!
//! Order of checks: the argument counts and sizes, the door and the configuration refusal, the
//! locale, base_version against the row as read, every edit, then the store's compare-and-set.

use mcp_runtime::output::guard::fragment;
use mcp_runtime::output::lines::{normalize_line_endings, numbered_lines};
use wiki_server::prelude::*;
use wiki_server::store::model::document::SaveOutcome;
use wiki_server::store::rights::Right;

use crate::seams::history::version_argument;
use crate::seams::window::split_lines;
use crate::seams::write::{
    BaseRule, RowChange, WriteTarget, no_changes, review_line, version_comment, version_line,
};

/// The most edits one call applies.
const MAX_EDITS: usize = 100;

/// The longest old_string or new_string, in characters.
const MAX_EDIT_CHARS: usize = 100_000;

/// Lines of context shown around each changed place.
const CONTEXT_LINES: usize = 3;

/// The budget of the `@@ edit N @@` echo, in characters.
const ECHO_CHARS: usize = 2000;

/// Change a document by exact-string replacements, applied in order and saved once.
///
/// Each edit replaces old_string (copied exactly from get_document, WITHOUT the line-number
/// prefix) by new_string; old_string must occur exactly once unless replace_all=true. All edits
/// apply to the result of the previous ones; if any fails, nothing is saved. To create a
/// document, send one edit with an empty old_string. base_version optionally locks the version
/// you read.
#[mcp_tool(
    id = "edit_document",
    write,
    category = "Authoring",
    title = "Edit a document by replacements",
    man = "NOTES
    edits is an ordered list of {old_string, new_string, replace_all?}. Each old_string must be
    copied exactly from the current source (get_document), without the `cat -n` line number and
    TAB, and must occur exactly once, unless replace_all=true replaces every occurrence. Edits
    apply in order, each to the text the previous ones produced, all in memory; the document is
    saved once, as one version. If any edit fails, nothing is saved and the error names it
    (`Edit N: old_string not found`, `Edit N: old_string found K times`). Line endings in
    strings are normalized to LF. At most 100 edits, each string at most 100,000 characters.

    On an existing document an empty old_string is refused: to append, quote the current last
    lines and repeat them with your addition. To create a document, send exactly one edit with
    an empty old_string and the whole content as new_string.

    title renames the document (an edit list may then be empty). base_version is an optional
    lock: when given and the document has moved on, you get a version conflict and nothing is
    saved. Without it the save is still checked against the version the edits were applied to,
    so a concurrent save is never overwritten.

    The result echoes each edit as `@@ edit N @@` with three numbered lines of context around
    the change, as they read after the save (at most 2,000 characters, then \"(further changes
    omitted)\"), and how many replacements each edit made. Comments are stored prefixed
    `[AI] `; minor version unless major=true. locale edits a translation row.

EXAMPLES
    edit_document reference=\"Sandbox.WebHome\" edits=[{\"old_string\": \"teh\", \"new_string\": \"the\"}]
    edit_document reference=\"Sandbox.WebHome\" base_version=\"2.3\" edits=[{\"old_string\": \"v1\", \"new_string\": \"v2\", \"replace_all\": true}]
    edit_document reference=\"Sandbox.New\" edits=[{\"old_string\": \"\", \"new_string\": \"# New page\\n\"}]
    edit_document reference=\"Sandbox.WebHome\" title=\"Sandbox (old)\"

SEE ALSO
    get_document, write_document (replace everything), get_history"
)]
struct EditDocument {
    /// The document to edit, e.g. "Sandbox.WebHome".
    reference: String,
    /// The replacements, applied in order.
    edits: Vec<Edit>,
    /// A new title.
    title: Option<String>,
    /// Edit a translation instead of the default language, e.g. "fr".
    locale: Option<String>,
    /// Optional lock: the version you read (get_document); a newer one is a conflict.
    base_version: Keep<String>,
    /// Why you made the change; stored prefixed with "[AI] ".
    comment: Option<String>,
    /// Record a major version instead of a minor one.
    major: bool,
    /// The wiki to write in instead of this endpoint's wiki (see list_wikis).
    #[param(cross_wiki)]
    wiki: Option<String>,
}

/// One exact-string replacement.
#[derive(Debug, ParamObject)]
struct Edit {
    /// The exact text to replace (no line-number prefix); empty only to create a document.
    old_string: String,
    /// The replacement text.
    new_string: String,
    /// Replace every occurrence instead of requiring exactly one.
    replace_all: Option<bool>,
}

impl Execute for EditDocument {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        let base = version_argument("base_version", &self.base_version)?;
        check_counts(&self.edits, self.title.is_some())?;
        let target = WriteTarget::resolve(
            ctx,
            &self.reference,
            self.wiki.as_deref(),
            self.locale.as_deref(),
            Right::Edit,
        )
        .await?;
        let retry = "redo your edits against the current text";
        let expected = target.expected(base, BaseRule::OptionalLock, retry)?;
        let applied = match target.current() {
            Some(row) => apply(&normalize_line_endings(&row.content), &self.edits)?,
            None => creation(&target, &self.edits)?,
        };
        let title_changes = match (&self.title, target.current()) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(title), Some(current)) => *title != current.title,
        };
        let creating = target.current().is_none();
        let default_comment = if creating {
            "Created document".to_owned()
        } else {
            summary(self.edits.len(), title_changes)
        };
        let change = RowChange {
            content: applied.text.clone(),
            title: self.title,
            comment: version_comment(self.comment.as_deref(), &default_comment),
            major: self.major,
        };
        let outcome = target.save(ctx, change, expected, retry).await?;
        if let SaveOutcome::Unchanged { version } = outcome {
            return Ok(no_changes(
                &target,
                "the edits leave the content and title as they were",
                version,
            ));
        }
        let what = match target.locale() {
            None => format!("document {}", fragment(&target.reference().to_string())),
            Some(locale) => format!(
                "translation \"{locale}\" of {}",
                fragment(&target.reference().to_string())
            ),
        };
        let mut out = vec![format!(
            "{} {what}.",
            if creating { "Created" } else { "Edited" }
        )];
        out.push(version_line(&outcome));
        if !creating && !self.edits.is_empty() {
            out.push(format!(
                "Edits: {} applied, {} replacement(s).",
                self.edits.len(),
                applied.counts.iter().sum::<usize>()
            ));
        }
        if title_changes {
            out.push(
                if creating {
                    "Title set."
                } else {
                    "Title updated."
                }
                .to_owned(),
            );
        }
        if !creating {
            out.push(echo(&applied));
        }
        out.extend(review_line(ctx, &target, &outcome));
        Ok(ToolOutput::text(out.join("\n")))
    }
}

/// The edits' text after applying them, the replacements each made, and where they landed.
#[derive(Debug)]
struct Applied {
    text: String,
    /// Replacements per edit, in order.
    counts: Vec<usize>,
    /// `(edit number, byte range in text)` of every replacement, kept current as later edits
    /// shift the text.
    places: Vec<(usize, std::ops::Range<usize>)>,
}

fn check_counts(edits: &[Edit], titled: bool) -> Result<(), ToolError> {
    if edits.is_empty() && !titled {
        return Err(ToolError::new(
            "Error: nothing to do: give at least one edit in 'edits', or a 'title'.",
        ));
    }
    if edits.len() > MAX_EDITS {
        return Err(ToolError::new(format!(
            "Error: 'edits' has {} edits; at most {MAX_EDITS} are applied in one call. Split \
             them over several calls. Nothing was saved.",
            edits.len()
        )));
    }
    for (index, edit) in edits.iter().enumerate() {
        for (name, text) in [
            ("old_string", &edit.old_string),
            ("new_string", &edit.new_string),
        ] {
            let chars = text.chars().count();
            if chars > MAX_EDIT_CHARS {
                return Err(ToolError::new(format!(
                    "Error: edit {}: {name} is too large ({chars} characters; the limit is \
                     100,000). Use write_document to replace the whole content. Nothing was \
                     saved.",
                    index + 1
                )));
            }
        }
    }
    Ok(())
}

/// A document created by edits: exactly one edit, with an empty old_string.
fn creation(target: &WriteTarget, edits: &[Edit]) -> Result<Applied, ToolError> {
    match edits {
        [edit] if edit.old_string.is_empty() => Ok(Applied {
            text: normalize_line_endings(&edit.new_string).into_owned(),
            counts: vec![1],
            places: Vec::new(),
        }),
        _ => Err(ToolError::new(format!(
            "Error: the {} does not exist. To create it, send exactly one edit with an empty \
             old_string and the whole content as new_string (or use write_document). Nothing \
             was saved.",
            target.row_name()
        ))),
    }
}

/// Applies `edits` in order to `text`, all or nothing.
fn apply(text: &str, edits: &[Edit]) -> Result<Applied, ToolError> {
    let mut applied = Applied {
        text: text.to_owned(),
        counts: Vec::with_capacity(edits.len()),
        places: Vec::new(),
    };
    for (index, edit) in edits.iter().enumerate() {
        let number = index + 1;
        let old = normalize_line_endings(&edit.old_string);
        let new = normalize_line_endings(&edit.new_string);
        if old.is_empty() {
            return Err(ToolError::new(format!(
                "Edit {number}: old_string is empty. On an existing document every edit must \
                 anchor on text that is there; to append, quote the current last lines and \
                 repeat them with your addition. Nothing was saved."
            )));
        }
        let starts: Vec<usize> = applied
            .text
            .match_indices(old.as_ref())
            .map(|(start, _)| start)
            .collect();
        match (starts.len(), edit.replace_all == Some(true)) {
            (0, _) => {
                return Err(ToolError::new(format!(
                    "Edit {number}: old_string not found in the document (after the edits before \
                     it). Re-read it with get_document and copy the text exactly, without the \
                     line-number prefix. Nothing was saved."
                )));
            }
            (found, false) if found > 1 => {
                return Err(ToolError::new(format!(
                    "Edit {number}: old_string found {found} times. Add surrounding text to make \
                     it unique, or set replace_all=true to replace every occurrence. Nothing was \
                     saved."
                )));
            }
            _ => {}
        }
        // Replace from the end, so earlier starts stay valid.
        for &start in starts.iter().rev() {
            replace(&mut applied, number, start..start + old.len(), &new);
        }
        applied.counts.push(starts.len());
    }
    Ok(applied)
}

/// Replaces `range` of the text by `new`, shifting the recorded places after it and merging
/// the ones it overlaps into the new place (places that only touch it stay their own).
fn replace(applied: &mut Applied, number: usize, range: std::ops::Range<usize>, new: &str) {
    let removed = range.len();
    // Only called for positions at or past `range.end`, so the subtraction cannot underflow.
    let shift = |at: usize| at - removed + new.len();
    let mut start = range.start;
    let mut end = range.start + new.len();
    applied.places.retain_mut(|(_, place)| {
        if place.end <= range.start {
            true
        } else if place.start >= range.end {
            *place = shift(place.start)..shift(place.end);
            true
        } else {
            start = start.min(place.start);
            if place.end > range.end {
                end = end.max(shift(place.end));
            }
            false
        }
    });
    applied.text.replace_range(range, new);
    applied.places.push((number, start..end));
}

/// The default version comment: "2 edits", "1 edit, retitled", "Retitled".
fn summary(edits: usize, retitled: bool) -> String {
    match (edits, retitled) {
        (0, _) => "Retitled".to_owned(),
        (1, false) => "1 edit".to_owned(),
        (n, false) => format!("{n} edits"),
        (1, true) => "1 edit, retitled".to_owned(),
        (n, true) => format!("{n} edits, retitled"),
    }
}

/// `@@ edit N @@ (K replacements)` blocks with the changed lines and three lines of context,
/// as numbered in the saved text, within [`ECHO_CHARS`].
fn echo(applied: &Applied) -> String {
    let lines = split_lines(&applied.text);
    let mut out = String::new();
    for (index, count) in applied.counts.iter().enumerate() {
        let number = index + 1;
        let mut block = format!(
            "@@ edit {number} @@ ({count} replacement{})",
            if *count == 1 { "" } else { "s" }
        );
        let mut places: Vec<&std::ops::Range<usize>> = applied
            .places
            .iter()
            .filter(|(n, _)| *n == number)
            .map(|(_, place)| place)
            .collect();
        places.sort_unstable_by_key(|place| place.start);
        let mut windows: Vec<(usize, usize)> = Vec::new();
        for place in places {
            let first = line_of(&applied.text, place.start);
            let last = line_of(&applied.text, place.end.saturating_sub(1).max(place.start));
            let from = first.saturating_sub(CONTEXT_LINES);
            let to = (last + CONTEXT_LINES).min(lines.len().saturating_sub(1));
            match windows.last_mut() {
                Some(window) if from <= window.1 + 1 => window.1 = window.1.max(to),
                _ => windows.push((from, to)),
            }
        }
        if windows.is_empty() {
            block.push_str("\n(merged into a later edit's change)");
        }
        for (from, to) in windows {
            if from < lines.len() {
                block.push('\n');
                block.push_str(&numbered_lines(lines[from..=to].iter().copied(), from + 1));
            }
        }
        if out.chars().count() + block.chars().count() + 1 > ECHO_CHARS {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str("(further changes omitted)");
            return out;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&block);
    }
    out
}

/// The 0-based line holding byte `at` of `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(old: &str, new: &str, all: bool) -> Edit {
        Edit {
            old_string: old.to_owned(),
            new_string: new.to_owned(),
            replace_all: Some(all),
        }
    }

    fn refused(result: Result<Applied, ToolError>) -> String {
        result
            .err()
            .map(|error| error.message().to_owned())
            .unwrap_or_default()
    }

    #[test]
    fn edits_apply_in_order_and_count() {
        let applied = apply(
            "a b a\nline two\n",
            &[edit("a", "x", true), edit("x b x", "done", false)],
        );
        let applied = applied.unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(applied.text, "done\nline two\n");
        assert_eq!(applied.counts, vec![2, 1]);
    }

    #[test]
    fn failures_name_the_edit() {
        assert!(
            refused(apply(
                "abc",
                &[edit("b", "c", false), edit("zz", "", false)]
            ))
            .starts_with("Edit 2: old_string not found")
        );
        assert!(
            refused(apply("aa", &[edit("a", "b", false)]))
                .starts_with("Edit 1: old_string found 2 times")
        );
        assert!(
            refused(apply("aa", &[edit("", "b", false)]))
                .starts_with("Edit 1: old_string is empty")
        );
    }

    #[test]
    fn the_echo_shows_context_as_saved() {
        let text: String = (1..=20).map(|n| format!("line {n}\n")).collect();
        let applied = apply(&text, &[edit("line 10\n", "ten\nTEN\n", false)])
            .unwrap_or_else(|error| panic!("{error}"));
        let shown = echo(&applied);
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
        let applied = apply(
            &text,
            &[
                edit("line 1\n", "first\n", false),
                edit("line 2", "L2", true),
            ],
        )
        .unwrap_or_else(|error| panic!("{error}"));
        // "line 2" occurs on lines 2 and 20: two windows, in order, numbered as saved.
        let shown = echo(&applied);
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
        let applied = apply(&text, &edits).unwrap_or_else(|error| panic!("{error}"));
        let shown = echo(&applied);
        assert!(shown.chars().count() <= ECHO_CHARS + 30);
        assert!(shown.ends_with("(further changes omitted)"), "{shown}");
    }

    #[test]
    fn later_edits_shift_earlier_places() {
        let applied = apply(
            "one\ntwo\nthree\n",
            &[edit("three", "3", false), edit("one\n", "1\n1b\n", false)],
        )
        .unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(applied.text, "1\n1b\ntwo\n3\n");
        let three = applied
            .places
            .iter()
            .find(|(n, _)| *n == 1)
            .map(|(_, r)| r.clone());
        assert_eq!(three.map(|r| &applied.text[r]), Some("3"));
    }
}
