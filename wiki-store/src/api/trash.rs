//! The recycle bin: deleted documents (with translations and attachments) and attachments,
//! restorable.

use crate::Result;
use crate::model::trash::{DocumentDelete, TrashEntry, TrashId, TrashQuery};
use crate::model::wiki::WikiId;

/// The recycle bin: deleting a document never destroys it.
///
/// Deleting moves every row of the document (all translations with their histories and links),
/// its attachments (every version), its class fields and its objects into the bin, in one
/// transaction, and emits `DocumentDeleted`. Restoring moves it all back; it is refused while a
/// document exists at that reference again. Attachments deleted with
/// [`crate::AttachmentStore::delete_attachment`] are bin entries of their own.
pub trait TrashStore {
    /// Moves a document to the bin, under a compare-and-set on its default row. The MCP
    /// configuration document and its class document are refused
    /// ([`crate::InvalidInput::ReservedDocument`]): deleting them would reset or disable a wiki's
    /// endpoint behind its administrators' back.
    fn delete_document(&self, delete: &DocumentDelete) -> Result<TrashEntry>;

    /// The bin entries of `wiki`, newest first.
    fn trash(&self, wiki: &WikiId) -> Result<Vec<TrashEntry>>;

    /// At most `query.limit` bin entries of a wiki or of one document, newest first by id (the
    /// order they were made in), below `query.before` when given: the bin read in bounded pages
    /// (a listing, or what became of one page).
    fn trash_entries(&self, query: &TrashQuery) -> Result<Vec<TrashEntry>>;

    /// Restores an entry: a document (refused with [`crate::StoreError::AlreadyExists`] if one
    /// exists there now), or an attachment onto its existing document (a new minor version by
    /// `author`; refused if an attachment of that name exists).
    fn restore(&self, id: TrashId, author: &str) -> Result<TrashEntry>;
}
