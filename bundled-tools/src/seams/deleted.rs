//! What a tool says of a page in the recycle bin: who deleted it, when, at which version, and
//! how it comes back. Reading tools say it instead of "no such document" (only for a page the
//! caller may view: the doors leave every other page out of the bin's answers), and the bin's
//! own tools word their entries the same way.

use mcp_runtime::output::guard::fragment;
use wiki_tool_sdk::access::Doors;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::trash::TrashEntry;

/// `deleted by alice on 2026-05-01 10:15 at version 1.3 (comment: "[AI] cleanup")`.
pub(crate) fn deletion(entry: &TrashEntry) -> String {
    let mut text = format!(
        "deleted by {} on {} at version {}",
        fragment(&entry.deleted_by),
        utc_minute(entry.deleted),
        entry.version
    );
    if !entry.comment.trim().is_empty() {
        text.push_str(&format!(" (comment: \"{}\")", fragment(&entry.comment)));
    }
    text
}

/// How the page comes back, for this caller: the call that restores it when the caller may
/// edit the page, else who can.
pub(crate) fn how_back(doors: &Doors, entry: &TrashEntry) -> String {
    if doors.has_right(&entry.reference, Right::Edit) {
        format!(
            "restore_document reference=\"{}\" brings it back with its translations, \
             attachments and objects.",
            fragment(&entry.reference.to_string())
        )
    } else {
        "Someone with the edit right on it can bring it back (restore_document).".to_owned()
    }
}

/// The refusal of a read of a page that is in the recycle bin: what happened and how it comes
/// back, instead of "no such document".
pub(crate) fn deleted_error(doors: &Doors, entry: &TrashEntry) -> ToolError {
    ToolError::new(format!(
        "Deleted document: \"{}\" is in the recycle bin, {}. {}",
        fragment(&entry.reference.to_string()),
        deletion(entry),
        how_back(doors, entry)
    ))
    .with_kind(ErrorKind::NotFound)
}

/// A recycle bin entry, structured.
#[mcp_output]
pub(crate) struct DeletedOutput {
    /// The entry's id (restore_document's `entry`).
    pub(crate) entry: u64,
    /// The deleted document (`wiki:Space.Page`), or the document the attachment belonged to.
    pub(crate) reference: String,
    /// The attachment deleted on its own, or null for the whole document.
    pub(crate) attachment: Option<String>,
    /// The document's version when it (or the attachment) was deleted.
    pub(crate) version: String,
    /// Who deleted it.
    pub(crate) deleted_by: String,
    /// When (ISO-8601, UTC).
    pub(crate) deleted: String,
    /// The deletion comment.
    pub(crate) comment: String,
}

impl DeletedOutput {
    /// `entry`'s fields.
    pub(crate) fn new(entry: &TrashEntry) -> Self {
        Self {
            entry: u64::try_from(entry.id.0).unwrap_or_default(),
            reference: entry.reference.to_string(),
            attachment: entry.attachment.clone(),
            version: entry.version.to_string(),
            deleted_by: entry.deleted_by.clone(),
            deleted: iso_instant(entry.deleted),
            comment: entry.comment.clone(),
        }
    }
}
