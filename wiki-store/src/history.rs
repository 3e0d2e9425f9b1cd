//! Revision diffs, computed alike for every backend from two revisions' contents.

use std::time::Duration;

use similar::{ChangeTag, TextDiff};

use crate::model::history::{DiffHunk, DiffLine, DiffLineKind, Revision, RevisionDiff};

/// Lines of unchanged context around each change.
const CONTEXT_LINES: usize = 3;

/// Past this, the diff algorithm settles for a coarser (still correct) diff rather than stall.
const DIFF_TIMEOUT: Duration = Duration::from_secs(2);

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
