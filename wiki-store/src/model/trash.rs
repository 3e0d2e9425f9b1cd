//! The recycle bin.

use time::OffsetDateTime;

use crate::model::document::Expected;
use crate::model::version::Version;
use crate::reference::DocumentReference;

/// The id of a recycle bin entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TrashId(pub i64);

impl std::fmt::Display for TrashId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Something in the recycle bin: a whole document, or one attachment of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrashEntry {
    /// The entry's id, to restore it.
    pub id: TrashId,
    /// The document (deleted, or holding the deleted attachment).
    pub reference: DocumentReference,
    /// `None`: the whole document; else the attachment's name.
    pub attachment: Option<String>,
    /// The document's version when it (or the attachment) was deleted.
    pub version: Version,
    /// Who deleted it.
    pub deleted_by: String,
    /// The deletion comment.
    pub comment: String,
    /// When.
    pub deleted: OffsetDateTime,
}

/// A request to move a document, with all its translations, attachments and objects, to the
/// recycle bin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentDelete {
    /// The document.
    pub reference: DocumentReference,
    /// Who deletes.
    pub author: String,
    /// Why (kept on the bin entry).
    pub comment: String,
    /// The compare-and-set condition on the default row (translations follow it).
    pub expected: Expected,
}
