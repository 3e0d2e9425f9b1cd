//! Attachments of documents and their versions.

use time::OffsetDateTime;

use crate::attachments::MediaTypes;
use crate::model::document::{Expected, SaveOutcome};
use crate::model::trash::TrashId;
use crate::model::version::Version;
use crate::reference::DocumentReference;

/// One version of an attachment, without its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttachmentInfo {
    /// The file name.
    pub name: String,
    /// The attachment's own version (1.1 for the first upload, then 1.2, ...).
    pub version: Version,
    /// The size in bytes.
    pub size: u64,
    /// The declared and sniffed media types.
    pub media: MediaTypes,
    /// Who uploaded this version.
    pub author: String,
    /// The upload's comment.
    pub comment: String,
    /// When this version was uploaded.
    pub date: OffsetDateTime,
}

/// An upload: a new attachment, or a new version of an existing one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttachmentWrite {
    /// The document (created, empty, if it does not exist).
    pub reference: DocumentReference,
    /// The file name (checked by [`crate::attachments::validate_attachment_name`]).
    pub name: String,
    /// The bytes (at most [`crate::Limits::max_attachment_bytes`]).
    pub content: Vec<u8>,
    /// Who uploads.
    pub author: String,
    /// The comment, on the attachment version and on the document's new version.
    pub comment: String,
    /// The compare-and-set condition on the document's default row.
    pub expected: Expected,
}

/// What an upload did.
///
/// An upload of the bytes (and so the media types) the current version already holds wrote
/// nothing: `document` is then [`SaveOutcome::Unchanged`] and `attachment_version` the current one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttachmentWriteOutcome {
    /// The attachment's new version, or its current one when nothing was written.
    pub attachment_version: Version,
    /// Whether this upload created the attachment.
    pub created_attachment: bool,
    /// What happened to the document (created, a new minor version, or unchanged).
    pub document: SaveOutcome,
}

/// A request to move one attachment (all its versions) to the recycle bin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttachmentDelete {
    /// The document.
    pub reference: DocumentReference,
    /// The file name.
    pub name: String,
    /// Who deletes.
    pub author: String,
    /// The document's version comment.
    pub comment: String,
    /// The compare-and-set condition on the document's default row.
    pub expected: Expected,
}

/// What deleting an attachment did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttachmentDeleted {
    /// The document's new version.
    pub document: SaveOutcome,
    /// The recycle bin entry holding the attachment, to restore it.
    pub trash: TrashId,
}
