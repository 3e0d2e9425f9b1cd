//! Revisions and diffs.

use std::fmt;

use time::OffsetDateTime;

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

impl fmt::Display for DiffHunk {
    /// The hunk as unified-diff text, one line per [`DiffLine`], each ending in a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.header)?;
        for line in &self.lines {
            let sign = match line.kind {
                DiffLineKind::Context => ' ',
                DiffLineKind::Removed => '-',
                DiffLineKind::Added => '+',
            };
            writeln!(f, "{sign}{}", line.text)?;
        }
        Ok(())
    }
}
