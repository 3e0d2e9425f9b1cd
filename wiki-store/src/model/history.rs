//! Revisions and diffs.

use std::fmt;

use time::OffsetDateTime;

use crate::model::structure::{Structure, StructureComparison};
use crate::model::version::Version;

/// One revision's metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RevisionInfo {
    /// The version this revision created.
    pub version: Version,
    /// Who saved it.
    pub author: String,
    /// When.
    pub date: OffsetDateTime,
    /// The version comment.
    pub comment: String,
}

/// One revision with its full content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    /// Its metadata.
    pub info: RevisionInfo,
    /// The title at that version.
    pub title: String,
    /// The full content at that version.
    pub content: String,
    /// The syntax id at that version.
    pub syntax: String,
    /// The hidden flag at that version.
    pub hidden: bool,
    /// The document's objects and attachments as that version left them; `None` for a
    /// translation row, and for a revision saved before revisions recorded them.
    pub structure: Option<Structure>,
}

/// A page of a row's history, newest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryPage {
    /// The row's current version.
    pub current: Version,
    /// How many revisions the row has in all.
    pub total: u64,
    /// The requested slice, newest first.
    pub revisions: Vec<RevisionInfo>,
}

/// A unified diff between two revisions of one row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RevisionDiff {
    /// The older side.
    pub from: RevisionInfo,
    /// The newer side.
    pub to: RevisionInfo,
    /// `(old, new)` when the title differs.
    pub title_change: Option<(String, String)>,
    /// The hunks, in order; empty when the contents are identical.
    pub hunks: Vec<DiffHunk>,
    /// How the objects and attachments of the two revisions compare.
    pub structure: StructureComparison,
}

/// One `@@ -a,b +c,d @@` hunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffHunk {
    /// The `@@ … @@` header line.
    pub header: String,
    /// The hunk's lines, without their line terminators.
    pub lines: Vec<DiffLine>,
}

/// A line of a hunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffLine {
    /// Whether the line is kept, removed or added.
    pub kind: DiffLineKind,
    /// The line's text, without its terminator.
    pub text: String,
    /// How the line ends. Part of what is compared: a line whose terminator changed is removed
    /// and added again, and the hunk says so.
    pub end: LineEnd,
}

/// How a line of a revision ends. Every Unicode line terminator ends a line (LF, VT, FF, NEL,
/// U+2028, U+2029; CR and CRLF count as LF), as the tools number lines, so stored text cannot
/// hide a line break inside one diff line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineEnd {
    /// A line feed (or CR, CRLF).
    LineFeed,
    /// The last line, with no terminator.
    Missing,
    /// Another line terminator (VT, FF, NEL, U+2028, U+2029).
    Unusual(char),
}

/// The three kinds of diff line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffLineKind {
    /// Unchanged context (` `).
    Context,
    /// Only in the older revision (`-`).
    Removed,
    /// Only in the newer revision (`+`).
    Added,
}

/// The name of an unusual line terminator, for the diff note.
fn terminator_name(c: char) -> &'static str {
    match c {
        '\u{0B}' => "VT",
        '\u{0C}' => "FF",
        '\u{85}' => "NEL",
        '\u{2028}' => "LINE SEPARATOR",
        '\u{2029}' => "PARAGRAPH SEPARATOR",
        _ => "line terminator",
    }
}

impl fmt::Display for DiffHunk {
    /// The hunk as unified-diff text, one line per [`DiffLine`], each ending in a newline; a line
    /// without a final newline, or ending in another terminator, is followed by a `\ ` note line
    /// (as `diff -u` marks a missing final newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.header)?;
        for line in &self.lines {
            let sign = match line.kind {
                DiffLineKind::Context => ' ',
                DiffLineKind::Removed => '-',
                DiffLineKind::Added => '+',
            };
            writeln!(f, "{sign}{}", line.text)?;
            match line.end {
                LineEnd::LineFeed => {}
                LineEnd::Missing => writeln!(f, "\\ No newline at end of file")?,
                LineEnd::Unusual(c) => writeln!(
                    f,
                    "\\ Line ends with U+{:04X} ({}), not a line feed",
                    u32::from(c),
                    terminator_name(c)
                )?,
            }
        }
        Ok(())
    }
}
