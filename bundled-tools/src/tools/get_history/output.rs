//! What `get_history` returns, structured: the revision list, one revision's snapshot, or a
//! diff's summary, as its text shows them.

use wiki_server::prelude::*;
use wiki_server::store::model::history::RevisionInfo;

use crate::seams::window_output::WindowOutput;

/// A history read.
#[mcp_output]
pub(crate) struct HistoryOutput {
    /// The document (`wiki:Space.Page`).
    pub(crate) reference: String,
    /// The translation whose history this is, or null for the default row.
    pub(crate) locale: Option<String>,
    /// `list`, `version` (one revision's snapshot) or `diff`.
    pub(crate) mode: HistoryMode,
    /// The current version: the one to write against.
    pub(crate) current_version: String,
    /// List: this page of revisions, newest first; version: the revision shown; diff: the
    /// two revisions compared, older first.
    pub(crate) revisions: Vec<RevisionOutput>,
    /// List: revisions in all; otherwise null.
    pub(crate) total: Option<u64>,
    /// List: the `offset` of the next page; null on the last page and in other modes.
    pub(crate) next_offset: Option<u64>,
    /// Version: the snapshot's lines shown; null in other modes.
    pub(crate) window: Option<WindowOutput>,
    /// Diff: the changed regions (hunks) between the two versions; null in other modes.
    pub(crate) hunks: Option<u64>,
    /// Diff: whether the title changed; null in other modes.
    pub(crate) title_changed: Option<bool>,
}

/// Which view a [`HistoryOutput`] holds.
#[mcp_output]
#[serde(rename_all = "snake_case")]
pub(crate) enum HistoryMode {
    /// The revision list.
    List,
    /// One revision's content.
    Version,
    /// The differences between two revisions.
    Diff,
}

/// One revision.
#[mcp_output]
pub(crate) struct RevisionOutput {
    /// Its version.
    pub(crate) version: String,
    /// Who saved it.
    pub(crate) author: String,
    /// When (ISO-8601, UTC).
    pub(crate) date: String,
    /// Its comment (empty when none).
    pub(crate) comment: String,
}

impl RevisionOutput {
    /// `info` as the output carries it.
    pub(crate) fn new(info: &RevisionInfo) -> Self {
        Self {
            version: info.version.to_string(),
            author: info.author.clone(),
            date: iso_instant(info.date),
            comment: info.comment.clone(),
        }
    }
}

impl HistoryOutput {
    /// The output of `mode` for `reference`'s row in `locale`, at `current`, with nothing else.
    pub(crate) fn new(
        reference: &DocumentReference,
        locale: Option<&Locale>,
        mode: HistoryMode,
        current: Version,
    ) -> Self {
        Self {
            reference: reference.to_string(),
            locale: locale.map(ToString::to_string),
            mode,
            current_version: current.to_string(),
            revisions: Vec::new(),
            total: None,
            next_offset: None,
            window: None,
            hunks: None,
            title_changed: None,
        }
    }
}
