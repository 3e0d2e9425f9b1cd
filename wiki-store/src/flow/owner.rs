//! Saving the document that owns attachments and objects, as [`crate::plan::owner`] plans it,
//! over [`OwnerRows`].
//!
//! Every write to what hangs on a document (attachments, objects, class fields) first takes the
//! document's default row ([`OwnerRows::lock_owner`], a row lock on PostgreSQL) and only then
//! reads what it plans on: writers of one document take turns, and each sees what the previous
//! one committed.

use crate::Result;
use crate::flow::documents::DocumentReads;
use crate::flow::documents::{self, DocumentRows};
use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::plan::document::unknown_document;
use crate::plan::owner::{Touch, TouchPlan, Touched};
use crate::reference::DocumentReference;
use crate::stored::{DEFAULT_ROW, StoredRow, corrupt};

/// What touching an owning document needs beyond a document save.
pub(crate) trait OwnerRows: DocumentRows {
    /// The id of the document's default row, held for the rest of the transaction where the
    /// backend locks rows (a plain read where the write transaction already excludes every other
    /// writer); `None` when the document is missing.
    fn lock_owner(&mut self, reference: &DocumentReference) -> Result<Option<i64>> {
        self.reads().default_row_id(reference)
    }
}

/// [`Touch::untouched`] on the document's default row as the transaction sees it.
pub(crate) fn untouched<T: DocumentRows>(tx: &mut T, touch: &Touch<'_>) -> Result<Option<Version>> {
    let row = tx.lock_row(touch.reference, DEFAULT_ROW)?;
    touch.untouched(row.as_ref().map(StoredRow::view))
}

/// Saves the owning document inside the transaction: a new version of the existing default
/// row, or (with `create`) a new empty document at 1.1. Returns the default row's id and its
/// versions.
pub(crate) fn touch<T: OwnerRows>(
    tx: &mut T,
    touch: &Touch<'_>,
    default_locale: &Locale,
) -> Result<(i64, Touched)> {
    let row = tx.lock_row(touch.reference, DEFAULT_ROW)?;
    match touch.plan(row.as_ref().map(StoredRow::view))? {
        TouchPlan::Create(save) => {
            let outcome = documents::save(tx, &save, default_locale)?;
            let id = tx
                .reads()
                .default_row_id(touch.reference)?
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
            let id = documents::write_row(tx, &write, row.as_ref().map(|row| row.id))?;
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

/// The default row id of an existing document, held as [`OwnerRows::lock_owner`] holds it, or
/// [`crate::StoreError::NotFound`].
pub(crate) fn require_locked<T: OwnerRows>(
    tx: &mut T,
    reference: &DocumentReference,
) -> Result<i64> {
    tx.lock_owner(reference)?
        .ok_or_else(|| unknown_document(reference))
}
