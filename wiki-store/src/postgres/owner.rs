//! Saving the document that owns attachments and objects, as [`crate::plan::owner`] plans it.
//!
//! Every write to what hangs on a document (attachments, objects, class fields) first locks the
//! document's default row ([`lock_owner`]) and only then reads what it plans on: writers of one
//! document take turns, and each sees what the previous one committed.

use crate::Result;
use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::plan::document::unknown_document;
use crate::plan::owner::{Touch, TouchPlan, Touched};
use crate::postgres::documents::{default_row_id, lock_row, save_in, write_row};
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::reference::DocumentReference;
use crate::stored::{DEFAULT_ROW, StoredRow, corrupt};

/// Locks the document's default row for the rest of the transaction; its id, or `None` when
/// the document is missing.
pub(crate) fn lock_owner(
    tx: &mut WriteTx<'_>,
    reference: &DocumentReference,
) -> Result<Option<i64>> {
    Ok(lock_row(tx, reference, DEFAULT_ROW)?.map(|row| row.id))
}

/// [`Touch::untouched`] on the document's default row, locked.
pub(crate) fn untouched(tx: &mut WriteTx<'_>, touch: &Touch<'_>) -> Result<Option<Version>> {
    let row = lock_row(tx, touch.reference, DEFAULT_ROW)?;
    touch.untouched(row.as_ref().map(StoredRow::view))
}

/// Saves the owning document inside `tx`: a new version of the existing default row, or (with
/// `create`) a new empty document at 1.1. Returns the default row's id and its versions.
pub(crate) fn touch(
    tx: &mut WriteTx<'_>,
    touch: &Touch<'_>,
    default_locale: &Locale,
) -> Result<(i64, Touched)> {
    let row = lock_row(tx, touch.reference, DEFAULT_ROW)?;
    match touch.plan(row.as_ref().map(StoredRow::view))? {
        TouchPlan::Create(save) => {
            let outcome = save_in(tx, &save, default_locale)?;
            let id = default_row_id(tx, touch.reference)?
                .ok_or_else(|| corrupt("created document row"))?;
            Ok((
                id,
                Touched {
                    previous: None,
                    version: outcome.version(),
                },
            ))
        }
        TouchPlan::Update(write) => {
            let id = write_row(tx, &write, row.as_ref().map(|row| row.id))?;
            Ok((
                id,
                Touched {
                    previous: write.previous,
                    version: write.version,
                },
            ))
        }
    }
}

/// The default row id of an existing document, or [`crate::StoreError::NotFound`] (reads).
pub(crate) fn require_document(conn: &mut Conn, reference: &DocumentReference) -> Result<i64> {
    default_row_id(conn, reference)?.ok_or_else(|| unknown_document(reference))
}

/// The default row id of an existing document, locked, or [`crate::StoreError::NotFound`].
pub(crate) fn require_locked(tx: &mut WriteTx<'_>, reference: &DocumentReference) -> Result<i64> {
    lock_owner(tx, reference)?.ok_or_else(|| unknown_document(reference))
}
