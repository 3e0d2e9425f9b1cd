//! The recycle bin.

use time::OffsetDateTime;

use crate::model::document::Expected;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
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

/// A bounded read of the recycle bin ([`crate::TrashStore::trash_entries`]): the entries of a
/// wiki, or of one document, newest first, in pages that continue below an entry id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrashQuery {
    /// The wiki whose bin is read.
    pub wiki: WikiId,
    /// Only this document's entries (the document itself and its attachments deleted on their
    /// own), or `None` for the whole wiki's.
    pub document: Option<DocumentReference>,
    /// Only entries with a smaller id (older): where the previous page ended.
    pub before: Option<TrashId>,
    /// The most entries read.
    pub limit: usize,
}

impl TrashQuery {
    /// The first `limit` entries of `wiki`'s bin.
    pub fn wiki(wiki: WikiId, limit: usize) -> Self {
        Self {
            wiki,
            document: None,
            before: None,
            limit,
        }
    }

    /// The first `limit` entries of `document` (its own deletions and its attachments').
    pub fn document(document: &DocumentReference, limit: usize) -> Self {
        Self {
            wiki: document.wiki().clone(),
            document: Some(document.clone()),
            before: None,
            limit,
        }
    }

    /// The same read, continued below entry `id`.
    #[must_use]
    pub fn before(mut self, id: TrashId) -> Self {
        self.before = Some(id);
        self
    }
}
