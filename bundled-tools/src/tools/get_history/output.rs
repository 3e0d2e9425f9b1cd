//! What `get_history` returns, structured: the revision list, one revision's snapshot, or a
//! diff's summary, as its text shows them.

use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::history::RevisionInfo;

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
    /// Diff: how the two revisions' objects and attachments compare; null in other modes.
    pub(crate) structure: Option<StructureOutput>,
}

/// How two revisions' objects and attachments compare.
#[mcp_output]
pub(crate) struct StructureOutput {
    /// Whether they could be compared.
    pub(crate) status: StructureStatus,
    /// `unrecorded`: the versions saved before revisions recorded objects and attachments.
    pub(crate) unrecorded: Vec<String>,
    /// `compared`: how many changes there are in all.
    pub(crate) changes_total: u64,
    /// `compared`: the changes shown (all of them unless the text says some were cut), objects
    /// by class and number, then attachments by name.
    pub(crate) changes: Vec<StructureChangeOutput>,
}

/// Whether two revisions' objects and attachments could be compared.
#[mcp_output]
#[serde(rename_all = "snake_case")]
pub(crate) enum StructureStatus {
    /// Both revisions recorded them: `changes` lists the differences.
    Compared,
    /// A revision was saved before revisions recorded them: nothing is known.
    Unrecorded,
    /// A translation: objects and attachments belong to the default row.
    NotApplicable,
}

/// One object or attachment change.
#[mcp_output]
pub(crate) struct StructureChangeOutput {
    /// What happened.
    pub(crate) change: StructureChangeKind,
    /// Objects: the class.
    pub(crate) class: Option<String>,
    /// Objects: the object number.
    pub(crate) number: Option<u32>,
    /// Attachments: the file name.
    pub(crate) attachment: Option<String>,
    /// Objects: the fields that differ (an added object: its values).
    pub(crate) fields: Vec<FieldChangeOutput>,
    /// Attachments: the older version, if the older revision had it.
    pub(crate) old: Option<AttachmentSideOutput>,
    /// Attachments: the newer version, if the newer revision has it.
    pub(crate) new: Option<AttachmentSideOutput>,
}

/// The kinds of object and attachment change.
#[mcp_output]
#[serde(rename_all = "snake_case")]
pub(crate) enum StructureChangeKind {
    /// An object only the newer revision has.
    ObjectAdded,
    /// An object only the older revision has.
    ObjectRemoved,
    /// An object whose values differ.
    ObjectChanged,
    /// An attachment only the newer revision has.
    AttachmentAdded,
    /// An attachment at a different version.
    AttachmentReplaced,
    /// An attachment only the older revision has.
    AttachmentRemoved,
}

/// One field of an object that differs.
#[mcp_output]
pub(crate) struct FieldChangeOutput {
    /// The field name.
    pub(crate) field: String,
    /// A Password field: it changed, and its values are never shown (`old`, `new` null).
    pub(crate) password: bool,
    /// The older value; null when not set (or a password).
    pub(crate) old: Option<String>,
    /// The newer value; null when not set (or a password).
    pub(crate) new: Option<String>,
}

/// One side of an attachment change.
#[mcp_output]
pub(crate) struct AttachmentSideOutput {
    /// The attachment's version.
    pub(crate) version: String,
    /// Its size in bytes.
    pub(crate) size: u64,
}

impl StructureOutput {
    /// A comparison of `status` with nothing listed yet.
    pub(crate) fn new(status: StructureStatus) -> Self {
        Self {
            status,
            unrecorded: Vec::new(),
            changes_total: 0,
            changes: Vec::new(),
        }
    }
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
            structure: None,
        }
    }
}
