//! The recycle bin's moves, over [`TrashRows`]: a document (every row and everything hanging
//! on it) into the bin and back, an attachment back onto its document.
//!
//! A deletion takes the default row first (locked on PostgreSQL), checks the compare-and-set,
//! then moves the rows out; a restore takes the entry first (locked, so two restores of one
//! entry take turns and the second finds it gone), refuses a document or attachment that
//! exists again, and moves the rows back under new ids.

use crate::Result;
use crate::config::Limits;
use crate::flow::attachments::AttachmentRows;
use crate::flow::owner::{self, require_locked};
use crate::model::locale::Locale;
use crate::model::trash::{DocumentDelete, TrashEntry, TrashId};
use crate::model::version::Version;
use crate::plan::document::check_expected;
use crate::plan::trash::{
    attachment_exists, deleted_event, document_exists, missing_document, restore_comment,
    restore_touch, unknown_entry,
};
use crate::reference::DocumentReference;
use crate::stored::{DEFAULT_ROW, from_ms, now_ms};

/// What the bin's moves read and write inside a backend's write transaction.
pub(crate) trait TrashRows: AttachmentRows {
    /// Stores a new bin entry: its id.
    fn insert_entry_row(
        &mut self,
        reference: &DocumentReference,
        attachment: Option<&str>,
        version: Version,
        author: &str,
        comment: &str,
        deleted_ms: i64,
    ) -> Result<i64>;

    /// Copies every row of a document (default row `default_id`) and everything hanging on it
    /// into bin entry `entry`, then deletes the rows.
    fn move_document_out(
        &mut self,
        entry: TrashId,
        reference: &DocumentReference,
        default_id: i64,
    ) -> Result<()>;

    /// Bin entry `id`, held for the rest of the transaction where the backend locks rows.
    fn lock_entry(&mut self, id: TrashId) -> Result<Option<TrashEntry>>;

    /// Whether any row (default or translation) of the document is stored.
    fn document_exists(&mut self, reference: &DocumentReference) -> Result<bool>;

    /// Moves a bin entry's document rows, and everything that hung on them, back under new row
    /// ids (the document is known to be absent).
    fn move_document_in(&mut self, entry: &TrashEntry) -> Result<()>;

    /// Moves a bin entry's attachments back onto the default row `document_id`.
    fn move_attachments_in(&mut self, entry: TrashId, document_id: i64) -> Result<()>;

    /// Deletes bin entry `id` (its rows go with it).
    fn delete_entry(&mut self, id: TrashId) -> Result<()>;
}

/// Stores a new bin entry, deleted now by `author`, and returns it.
pub(crate) fn insert_entry<T: TrashRows>(
    tx: &mut T,
    reference: &DocumentReference,
    attachment: Option<&str>,
    version: Version,
    author: &str,
    comment: &str,
) -> Result<TrashEntry> {
    let deleted = now_ms();
    let id = tx.insert_entry_row(reference, attachment, version, author, comment, deleted)?;
    Ok(TrashEntry {
        id: TrashId(id),
        reference: reference.clone(),
        attachment: attachment.map(str::to_owned),
        version,
        deleted_by: author.to_owned(),
        comment: comment.to_owned(),
        deleted: from_ms(deleted),
    })
}

/// Moves a document into the bin (validated: [`crate::plan::trash::validate_delete`]).
pub(crate) fn delete_document<T: TrashRows>(
    tx: &mut T,
    delete: &DocumentDelete,
) -> Result<TrashEntry> {
    let reference = &delete.reference;
    let row = tx.lock_row(reference, DEFAULT_ROW)?;
    check_expected(delete.expected, row.as_ref().map(|row| row.version))?;
    let row = row.ok_or_else(|| missing_document(reference))?;
    let entry = insert_entry(
        tx,
        reference,
        None,
        row.version,
        &delete.author,
        &delete.comment,
    )?;
    tx.move_document_out(entry.id, reference, row.id)?;
    let (wiki, event) = deleted_event(reference);
    tx.emit(wiki, event);
    Ok(entry)
}

/// Restores bin entry `id`: a document (refused if it exists again), or an attachment onto its
/// document (which must exist, and is saved by `author`; refused if an attachment of that name
/// exists again). The entry leaves the bin.
pub(crate) fn restore<T: TrashRows>(
    tx: &mut T,
    id: TrashId,
    author: &str,
    locale: &Locale,
    limits: &Limits,
) -> Result<TrashEntry> {
    let entry = tx.lock_entry(id)?.ok_or_else(|| unknown_entry(id))?;
    match &entry.attachment {
        None => {
            if tx.document_exists(&entry.reference)? {
                return Err(document_exists(&entry.reference));
            }
            tx.move_document_in(&entry)?;
        }
        Some(name) => {
            let comment = restore_comment(name);
            let touch = restore_touch(&entry.reference, author, &comment, limits)?;
            let document_id = require_locked(tx, &entry.reference)?;
            if tx.attachment_id(document_id, name)?.is_some() {
                return Err(attachment_exists(name, &entry.reference));
            }
            owner::touch(tx, &touch, locale)?;
            tx.move_attachments_in(entry.id, document_id)?;
        }
    }
    tx.delete_entry(entry.id)?;
    Ok(entry)
}
