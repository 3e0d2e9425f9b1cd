//! Attachments of documents: versioned bytes with a sniffed and a declared mime type.

use crate::Result;
use crate::model::attachment::{
    AttachmentDelete, AttachmentDeleted, AttachmentInfo, AttachmentWrite, AttachmentWriteOutcome,
};
use crate::model::version::Version;
use crate::reference::DocumentReference;

/// Attachments of documents: versioned bytes with a sniffed and a declared mime type.
///
/// An upload checks the name and the size cap before anything is written, then saves the owning
/// document (a new minor version, or creation) under the caller's compare-and-set and adds the
/// attachment's next version, in one transaction, as XWiki does. Deleting moves the attachment,
/// every version included, to the recycle bin.
pub trait AttachmentStore {
    /// The current version of every attachment of a document, by name;
    /// [`crate::StoreError::NotFound`] if the document does not exist.
    fn attachments(&self, reference: &DocumentReference) -> Result<Vec<AttachmentInfo>>;

    /// The current version of one attachment, or `None`.
    fn attachment(
        &self,
        reference: &DocumentReference,
        name: &str,
    ) -> Result<Option<AttachmentInfo>>;

    /// Every version of one attachment, newest first (empty when there is no such attachment).
    fn attachment_history(
        &self,
        reference: &DocumentReference,
        name: &str,
    ) -> Result<Vec<AttachmentInfo>>;

    /// The bytes of one version (`None`: the current one), with its description; `None` when
    /// there is no such attachment or version.
    fn attachment_content(
        &self,
        reference: &DocumentReference,
        name: &str,
        version: Option<Version>,
    ) -> Result<Option<(AttachmentInfo, Vec<u8>)>>;

    /// Uploads a new attachment or a new version of one. Re-uploading the bytes the current
    /// version holds writes nothing (no attachment or document version, no event; the document
    /// is [`crate::model::document::SaveOutcome::Unchanged`]), but a stale `expected` is still
    /// refused, as for an identical document save.
    fn write_attachment(&self, write: &AttachmentWrite) -> Result<AttachmentWriteOutcome>;

    /// Moves an attachment to the recycle bin (a new minor version of the document).
    fn delete_attachment(&self, delete: &AttachmentDelete) -> Result<AttachmentDeleted>;
}
