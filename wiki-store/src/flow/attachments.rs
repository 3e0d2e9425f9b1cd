//! Attachment uploads and deletions, over [`AttachmentRows`].
//!
//! An upload takes the owning document first ([`crate::flow::owner`]), then compares the new
//! bytes with the current version (the cheap columns first, the bytes where they are stored),
//! writes nothing when they are the same and the document would not change, else saves the
//! document and adds the next version. A deletion moves the whole attachment to the recycle bin.

use crate::Result;
use crate::attachments::MediaTypes;
use crate::flow::owner::{self, OwnerRows, require_locked};
use crate::model::attachment::{
    AttachmentDelete, AttachmentDeleted, AttachmentWrite, AttachmentWriteOutcome,
};
use crate::model::document::SaveOutcome;
use crate::model::locale::Locale;
use crate::model::trash::TrashId;
use crate::model::version::Version;
use crate::plan::attachment::{CurrentAttachment, next_version, unknown_attachment};
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

    /// Moves attachment `attachment_id` of `reference` (now at `version`) with every version
    /// to the recycle bin.
    fn trash_attachment(
        &mut self,
        attachment_id: i64,
        reference: &DocumentReference,
        version: Version,
        author: &str,
        comment: &str,
    ) -> Result<TrashId>;
}

/// Uploads a new version of an attachment, unless the current one already holds it (then the
/// transaction is a no-op). Validation must have run
/// ([`crate::plan::attachment::validate_upload`], which gave `touch` and `media`).
pub(crate) fn write_attachment<T: AttachmentRows>(
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

/// Deletes an attachment (to the recycle bin) and saves its document.
pub(crate) fn delete_attachment<T: AttachmentRows>(
    tx: &mut T,
    delete: &AttachmentDelete,
    touch: &Touch<'_>,
    locale: &Locale,
) -> Result<AttachmentDeleted> {
    let document_id = require_locked(tx, &delete.reference)?;
    let attachment_id = tx
        .attachment_id(document_id, &delete.name)?
        .ok_or_else(|| unknown_attachment(&delete.name, &delete.reference))?;
    let (_, touched) = owner::touch(tx, touch, locale)?;
    let trash = tx.trash_attachment(
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
}
