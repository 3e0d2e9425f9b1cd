//! Revisions of a row: listing, full content of any version, and unified diffs.

use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};
use similar::{ChangeTag, TextDiff};

use crate::Result;
use crate::model::history::{
    DiffHunk, DiffLine, DiffLineKind, HistoryPage, Revision, RevisionDiff, RevisionInfo,
};
use crate::model::version::Version;
use crate::sqlite::convert::{DbResultExt, from_ms};

/// Lines of unchanged context around each change.
const CONTEXT_LINES: usize = 3;

/// Past this, the diff algorithm settles for a coarser (still correct) diff rather than stall.
const DIFF_TIMEOUT: Duration = Duration::from_secs(2);

pub(crate) fn page(
    conn: &Connection,
    row_id: i64,
    current: Version,
    offset: usize,
    limit: usize,
) -> Result<HistoryPage> {
    let total: i64 = conn
        .prepare_cached("SELECT count(*) FROM revisions WHERE document_id = ?1")
        .db()?
        .query_row([row_id], |row| row.get(0))
        .db()?;
    let mut stmt = conn
        .prepare_cached(
            "SELECT major, minor, author, saved_ms, comment FROM revisions WHERE document_id = ?1 \
             ORDER BY major DESC, minor DESC LIMIT ?2 OFFSET ?3",
        )
        .db()?;
    let rows = stmt
        .query_map(params![row_id, clamp(limit), clamp(offset)], |row| {
            Ok(RevisionInfo {
                version: Version {
                    major: row.get(0)?,
                    minor: row.get(1)?,
                },
                author: row.get(2)?,
                date: from_ms(row.get(3)?),
                comment: row.get(4)?,
            })
        })
        .db()?;
    let revisions = rows.collect::<rusqlite::Result<Vec<_>>>().db()?;
    Ok(HistoryPage {
        current,
        total: u64::try_from(total).unwrap_or_default(),
        revisions,
    })
}

fn clamp(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

pub(crate) fn revision(
    conn: &Connection,
    row_id: i64,
    version: Version,
) -> Result<Option<Revision>> {
    conn.prepare_cached(
        "SELECT author, saved_ms, comment, title, content, syntax, hidden FROM revisions \
         WHERE document_id = ?1 AND major = ?2 AND minor = ?3",
    )
    .db()?
    .query_row(params![row_id, version.major, version.minor], |row| {
        Ok(Revision {
            info: RevisionInfo {
                version,
                author: row.get(0)?,
                date: from_ms(row.get(1)?),
                comment: row.get(2)?,
            },
            title: row.get(3)?,
            content: row.get(4)?,
            syntax: row.get(5)?,
            hidden: row.get(6)?,
        })
    })
    .optional()
    .db()
}

/// The unified diff from `old` to `new` over their whole contents (the `similar` crate).
pub(crate) fn diff(old: Revision, new: Revision) -> RevisionDiff {
    let text = TextDiff::configure()
        .timeout(DIFF_TIMEOUT)
        .diff_lines(old.content.as_str(), new.content.as_str());
    let mut unified = text.unified_diff();
    unified.context_radius(CONTEXT_LINES);
    let hunks = unified
        .iter_hunks()
        .map(|hunk| DiffHunk {
            header: hunk.header().to_string(),
            lines: hunk
                .iter_changes()
                .map(|change| DiffLine {
                    kind: match change.tag() {
                        ChangeTag::Equal => DiffLineKind::Context,
                        ChangeTag::Delete => DiffLineKind::Removed,
                        ChangeTag::Insert => DiffLineKind::Added,
                    },
                    text: change.value().trim_end_matches(['\n', '\r']).to_owned(),
                })
                .collect(),
        })
        .collect();
    let title_change = (old.title != new.title).then(|| (old.title.clone(), new.title.clone()));
    RevisionDiff {
        from: old.info,
        to: new.info,
        title_change,
        hunks,
    }
}
