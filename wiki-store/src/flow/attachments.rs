//! Attachments, over [`AttachmentRows`] (uploads and deletions) and [`AttachmentReads`].
//!
//! An upload takes the owning document first ([`crate::flow::owner`]), then compares the new
//! bytes with the current version (the cheap columns first, the bytes where they are stored),
//! writes nothing when they are the same and the document would not change, else saves the
//! document and adds the next version. A deletion moves the whole attachment to the recycle bin.

use crate::Result;
use crate::api::AttachmentStore;
use crate::attachments::MediaTypes;
use crate::backend::Backend;
use crate::flow::documents::DocumentReads;
use crate::flow::owner::{self, OwnerRows, require_locked};
use crate::flow::trash::trash_attachment;
use crate::model::attachment::{
    AttachmentDelete, AttachmentDeleted, AttachmentInfo, AttachmentWrite, AttachmentWriteOutcome,
};
use crate::model::document::SaveOutcome;
use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::plan::attachment::{
    CurrentAttachment, next_version, unknown_attachment, validate_delete, validate_upload,
};
use crate::plan::owner::Touch;
use crate::reference::DocumentReference;

/// What attachment writes read and write inside a backend's write transaction.
pub(crate) trait AttachmentRows: OwnerRows {
    /// The id and current version of the attachment `name` of the default row `document_id`,
    /// without its bytes.
    fn current_version(
        &mut self,
        document_id: i64,
        name: &str,
    ) -> Result<Option<(i64, CurrentAttachment)>>;

    /// Whether version `version` of attachment `attachment_id` holds exactly `content`,
    /// compared where the bytes are stored (never copied out).
    fn same_bytes(&mut self, attachment_id: i64, version: Version, content: &[u8]) -> Result<bool>;

    /// The id of the attachment `name` of the default row `document_id`.
    fn attachment_id(&mut self, document_id: i64, name: &str) -> Result<Option<i64>>;

    /// Adds an attachment without versions to the default row `document_id`: its id.
    fn insert_attachment(&mut self, document_id: i64, name: &str) -> Result<i64>;

    /// Adds version `version` of `write`'s content to attachment `attachment_id`.
    fn insert_version(
        &mut self,
        attachment_id: i64,
        version: Version,
        write: &AttachmentWrite,
        media: &MediaTypes,
    ) -> Result<()>;
}

/// What attachment reads fetch.
pub(crate) trait AttachmentReads: DocumentReads {
    /// The current version of each attachment of the default row `document_id`, by name.
    fn current_attachments(&mut self, document_id: i64) -> Result<Vec<AttachmentInfo>>;

    /// Every version of the attachment `name` of the document, newest first; empty when the
    /// document or the attachment is missing. Read in one snapshot, and on PostgreSQL in one
    /// statement.
    fn attachment_history(
        &mut self,
        reference: &DocumentReference,
        name: &str,
    ) -> Result<Vec<AttachmentInfo>>;

    /// Version `version` (the current one for `None`) of the attachment `name` of the document,
    /// with its bytes.
    fn attachment_content(
        &mut self,
        reference: &DocumentReference,
        name: &str,
        version: Option<Version>,
    ) -> Result<Option<(AttachmentInfo, Vec<u8>)>>;
}

impl<B: Backend> AttachmentStore for B {
    fn attachments(&self, reference: &DocumentReference) -> Result<Vec<AttachmentInfo>> {
        self.snapshot(|rows| {
            let document_id = rows.require_document(reference)?;
            rows.current_attachments(document_id)
        })
    }

    fn attachment(
        &self,
        reference: &DocumentReference,
        name: &str,
    ) -> Result<Option<AttachmentInfo>> {
        Ok(self.attachment_history(reference, name)?.into_iter().next())
    }

    fn attachment_history(
        &self,
        reference: &DocumentReference,
        name: &str,
    ) -> Result<Vec<AttachmentInfo>> {
        self.read(|rows| rows.attachment_history(reference, name))
    }

    fn attachment_content(
        &self,
        reference: &DocumentReference,
        name: &str,
        version: Option<Version>,
    ) -> Result<Option<(AttachmentInfo, Vec<u8>)>> {
        self.read(|rows| rows.attachment_content(reference, name, version))
    }

    /// A no-op when the current version already holds these bytes and the document would not
    /// change.
    fn write_attachment(&self, write: &AttachmentWrite) -> Result<AttachmentWriteOutcome> {
        let (touch, media) = validate_upload(write, &self.config().limits)?;
        let locale = &self.config().default_locale;
        self.write(|tx| write_attachment(tx, write, &touch, &media, locale))
    }

    fn delete_attachment(&self, delete: &AttachmentDelete) -> Result<AttachmentDeleted> {
        let touch = validate_delete(delete, &self.config().limits)?;
        let locale = &self.config().default_locale;
        self.write(|tx| {
            let document_id = require_locked(tx, &delete.reference)?;
            let attachment_id = tx
                .attachment_id(document_id, &delete.name)?
                .ok_or_else(|| unknown_attachment(&delete.name, &delete.reference))?;
            let (_, touched) = owner::touch(tx, &touch, locale)?;
            let trash = trash_attachment(
                tx,
                attachment_id,
                &delete.reference,
                touched.version,
                &delete.author,
                &delete.comment,
            )?;
            Ok(AttachmentDeleted {
                document: touched.outcome(),
                trash,
            })
        })
    }
}

/// Uploads a new version of an attachment, unless the current one already holds it (then the
/// transaction is a no-op). Validation has run ([`validate_upload`] gave `touch` and `media`).
fn write_attachment<T: AttachmentRows>(
    tx: &mut T,
    write: &AttachmentWrite,
    touch: &Touch<'_>,
    media: &MediaTypes,
    locale: &Locale,
) -> Result<AttachmentWriteOutcome> {
    let current = match tx.lock_owner(&write.reference)? {
        Some(document_id) => tx.current_version(document_id, &write.name)?,
        None => None,
    };
    if let Some((attachment_id, current)) = &current
        && current.holds(&write.content, media, || {
            tx.same_bytes(*attachment_id, current.version, &write.content)
        })?
        && let Some(version) = owner::untouched(tx, touch)?
    {
        tx.nothing_changed();
        return Ok(AttachmentWriteOutcome {
            attachment_version: current.version,
            created_attachment: false,
            document: SaveOutcome::Unchanged { version },
        });
    }
    let (document_id, touched) = owner::touch(tx, touch, locale)?;
    let version = next_version(current.as_ref().map(|(_, current)| current));
    let attachment_id = match &current {
        Some((attachment_id, _)) => *attachment_id,
        None => tx.insert_attachment(document_id, &write.name)?,
    };
    tx.insert_version(attachment_id, version, write, media)?;
    Ok(AttachmentWriteOutcome {
        attachment_version: version,
        created_attachment: current.is_none(),
        document: touched.outcome(),
    })
}
