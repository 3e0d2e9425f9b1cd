//! Revision diffs, computed alike for every backend from two revisions' contents.

use std::time::{Duration, Instant};

use similar::udiff::UnifiedHunkHeader;
use similar::{Algorithm, ChangeTag, capture_diff_slices_deadline, group_diff_ops};

use crate::model::history::{DiffHunk, DiffLine, DiffLineKind, LineEnd, Revision, RevisionDiff};

/// Lines of unchanged context around each change.
const CONTEXT_LINES: usize = 3;

/// Past this, the diff algorithm settles for a coarser (still correct) diff rather than stall.
const DIFF_TIMEOUT: Duration = Duration::from_secs(2);

/// One line of a revision: its text and how it ends (both compared).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Line<'a> {
    text: &'a str,
    end: LineEnd,
}

/// The lines of `text`, split at every Unicode line terminator ([`LineEnd`]); CRLF counts as
/// one terminator. An empty text has no lines; a final terminator ends the last line.
fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let end = match c {
            '\n' => LineEnd::LineFeed,
            '\r' => {
                if let Some((_, '\n')) = chars.peek() {
                    chars.next();
                }
                LineEnd::LineFeed
            }
            '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}' => LineEnd::Unusual(c),
            _ => continue,
        };
        out.push(Line {
            text: &text[start..at],
            end,
        });
        start = chars.peek().map_or(text.len(), |(next, _)| *next);
    }
    if start < text.len() {
        out.push(Line {
            text: &text[start..],
            end: LineEnd::Missing,
        });
    }
    out
}

/// The unified diff from `old` to `new` over their whole contents, line by line as the tools
/// number lines (the `similar` crate's algorithm and hunk grouping), and of their objects and
/// attachments (none for a `translation` row, whose structure is its default row's).
pub(crate) fn diff(old: Revision, new: Revision, translation: bool) -> RevisionDiff {
    let (before, after) = (lines(&old.content), lines(&new.content));
    let ops = capture_diff_slices_deadline(
        Algorithm::Myers,
        &before,
        &after,
        Instant::now().checked_add(DIFF_TIMEOUT),
    );
    let hunks = group_diff_ops(ops, CONTEXT_LINES)
        .into_iter()
        .filter(|group| !group.is_empty())
        .map(|group| DiffHunk {
            header: UnifiedHunkHeader::new(&group).to_string(),
            lines: group
                .iter()
                .flat_map(|op| op.iter_changes(&before[..], &after[..]))
                .map(|change| {
                    let line = change.value();
                    DiffLine {
                        kind: match change.tag() {
                            ChangeTag::Equal => DiffLineKind::Context,
                            ChangeTag::Delete => DiffLineKind::Removed,
                            ChangeTag::Insert => DiffLineKind::Added,
                        },
                        text: line.text.to_owned(),
                        end: line.end,
                    }
                })
                .collect(),
        })
        .collect();
    let title_change = (old.title != new.title).then(|| (old.title.clone(), new.title.clone()));
    let structure = crate::structure::compare(&old, &new, translation);
    RevisionDiff {
        structure,
        from: old.info,
        to: new.info,
        title_change,
        hunks,
    }
}

#[cfg(test)]
mod tests {
    use time::OffsetDateTime;

    use super::*;
    use crate::model::history::RevisionInfo;
    use crate::model::version::Version;

    fn revision(content: &str) -> Revision {
        Revision {
            info: RevisionInfo {
                version: Version::FIRST,
                author: "a".into(),
                date: OffsetDateTime::UNIX_EPOCH,
                comment: String::new(),
            },
            title: String::new(),
            content: content.into(),
            syntax: "markdown/1.0".into(),
            hidden: false,
            structure: None,
        }
    }

    fn unified(old: &str, new: &str) -> String {
        diff(revision(old), revision(new), false)
            .hunks
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn every_unicode_line_terminator_ends_a_diff_line() {
        assert_eq!(
            lines("a\r\nb\u{2028}c\u{b}d"),
            [
                Line {
                    text: "a",
                    end: LineEnd::LineFeed
                },
                Line {
                    text: "b",
                    end: LineEnd::Unusual('\u{2028}')
                },
                Line {
                    text: "c",
                    end: LineEnd::Unusual('\u{b}')
                },
                Line {
                    text: "d",
                    end: LineEnd::Missing
                },
            ]
        );
        // A forged line after U+2028 is a line of its own, marked, never raw inside another.
        let shown = unified("one\ntwo\n", "one\u{2028}+++ forged\ntwo\n");
        assert_eq!(
            shown,
            "@@ -1,2 +1,3 @@\n-one\n+one\n\\ Line ends with U+2028 (LINE SEPARATOR), not a line \
             feed\n++++ forged\n two\n"
        );
        assert!(!shown.contains('\u{2028}'));
    }

    /// Regression: a change of the final newline alone was shown with wrong notes.
    #[test]
    fn a_missing_final_newline_is_a_difference_and_says_so() {
        assert_eq!(
            unified("a\nb", "a\nb\n"),
            "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"
        );
        assert_eq!(unified("a\nb\n", "a\nb\n"), "");
        assert_eq!(
            unified("", "x"),
            "@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n"
        );
    }
}
