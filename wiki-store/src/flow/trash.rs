//! The recycle bin, over [`TrashRows`] and [`TrashReads`]: a document (every row and everything hanging
//! on it) into the bin and back, an attachment back onto its document.
//!
//! A deletion takes the default row first (locked on PostgreSQL), checks the compare-and-set,
//! then moves the rows out; a restore takes the entry first (locked, so two restores of one
//! entry take turns and the second finds it gone), refuses a document or attachment that
//! exists again, and moves the rows back under new ids.

use crate::Result;
use crate::api::TrashStore;
use crate::backend::Backend;
use crate::flow::Transaction;
use crate::flow::attachments::AttachmentRows;
use crate::flow::documents::DocumentRows;
use crate::flow::owner::{self, require_locked};
use crate::model::trash::{DocumentDelete, TrashEntry, TrashId, TrashQuery};
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::plan::document::check_expected;
use crate::plan::trash::{
    attachment_exists, deleted_event, document_exists, missing_document, restore_comment,
    restore_touch, restored_event, unknown_entry, validate_delete,
};
use crate::reference::DocumentReference;
use crate::stored::{DEFAULT_ROW, from_ms};

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
    /// ids (the document is known to be absent); the restored default row's version, if the
    /// entry has that row.
    fn move_document_in(&mut self, entry: &TrashEntry) -> Result<Option<Version>>;

    /// Moves a bin entry's attachments back onto the default row `document_id`.
    fn move_attachments_in(&mut self, entry: TrashId, document_id: i64) -> Result<()>;

    /// Deletes bin entry `id` (its rows go with it).
    fn delete_entry(&mut self, id: TrashId) -> Result<()>;

    /// The name of attachment `attachment_id`.
    fn attachment_name(&mut self, attachment_id: i64) -> Result<String>;

    /// Copies attachment `attachment_id` with every version into bin entry `entry`, then
    /// deletes it.
    fn move_attachment_out(&mut self, entry: TrashId, attachment_id: i64) -> Result<()>;
}

/// What the bin's listing reads.
pub(crate) trait TrashReads {
    /// The bin entries of `wiki`, newest first.
    fn trash_entries(&mut self, wiki: &WikiId) -> Result<Vec<TrashEntry>>;

    /// At most `query.limit` entries of `query.wiki` (of `query.document` only, when given),
    /// below `query.before` when given, newest first by id.
    fn trash_page(&mut self, query: &TrashQuery) -> Result<Vec<TrashEntry>>;
}

impl<B: Backend> TrashStore for B {
    /// The default row is taken first, the compare-and-set checked, then the rows moved out.
    fn delete_document(&self, delete: &DocumentDelete) -> Result<TrashEntry> {
        validate_delete(delete, &self.config().limits)?;
        self.write(|tx| {
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
        })
    }

    fn trash(&self, wiki: &WikiId) -> Result<Vec<TrashEntry>> {
        self.read(|rows| rows.trash_entries(wiki))
    }

    fn trash_entries(&self, query: &TrashQuery) -> Result<Vec<TrashEntry>> {
        self.read(|rows| rows.trash_page(query))
    }

    /// The entry is taken first (held, so two restores of one entry take turns and the second
    /// finds it gone); a restored attachment's document is saved by `author`.
    fn restore(&self, id: TrashId, author: &str) -> Result<TrashEntry> {
        let config = self.config();
        self.write(|tx| {
            let entry = tx.lock_entry(id)?.ok_or_else(|| unknown_entry(id))?;
            match &entry.attachment {
                None => {
                    if tx.document_exists(&entry.reference)? {
                        return Err(document_exists(&entry.reference));
                    }
                    let version = tx.move_document_in(&entry)?.unwrap_or(entry.version);
                    let (wiki, event) = restored_event(&entry.reference, version);
                    tx.emit(wiki, event);
                }
                Some(name) => {
                    let comment = restore_comment(name);
                    let touch = restore_touch(&entry.reference, author, &comment, &config.limits)?;
                    let document_id = require_locked(tx, &entry.reference)?;
                    if tx.attachment_id(document_id, name)?.is_some() {
                        return Err(attachment_exists(name, &entry.reference));
                    }
                    owner::touch(tx, &touch, &config.default_locale)?;
                    tx.move_attachments_in(entry.id, document_id)?;
                }
            }
            tx.delete_entry(entry.id)?;
            Ok(entry)
        })
    }
}

/// Moves attachment `attachment_id` of `reference` (now at `version`, the caller has saved the
/// document) with every version into a new bin entry.
pub(crate) fn trash_attachment<T: TrashRows>(
    tx: &mut T,
    attachment_id: i64,
    reference: &DocumentReference,
    version: Version,
    author: &str,
    comment: &str,
) -> Result<TrashId> {
    let name = tx.attachment_name(attachment_id)?;
    let entry = insert_entry(tx, reference, Some(&name), version, author, comment)?;
    tx.move_attachment_out(entry.id, attachment_id)?;
    Ok(entry.id)
}

/// Stores a new bin entry, deleted now by `author`, and returns it.
fn insert_entry<T: TrashRows>(
    tx: &mut T,
    reference: &DocumentReference,
    attachment: Option<&str>,
    version: Version,
    author: &str,
    comment: &str,
) -> Result<TrashEntry> {
    let deleted = tx.now_ms();
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
