//! Saving the document that owns attachments and objects, as [`crate::plan::owner`] plans it.

use crate::Result;
use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::plan::document::unknown_document;
use crate::plan::owner::{Touch, TouchPlan, Touched};
use crate::reference::DocumentReference;
use crate::sqlite::documents::{default_row_id, load_row, save_in, write_row};
use crate::sqlite::write::WriteTx;
use crate::stored::{DEFAULT_ROW, StoredRow, corrupt};

/// [`Touch::untouched`] on the document's default row as `tx` sees it.
pub(crate) fn untouched(tx: &WriteTx<'_>, touch: &Touch<'_>) -> Result<Option<Version>> {
    let row = load_row(tx, touch.reference, DEFAULT_ROW)?;
    touch.untouched(row.as_ref().map(StoredRow::view))
}

/// Saves the owning document inside `tx`: a new version of the existing default row, or (with
/// `create`) a new empty document at 1.1. Returns the default row's id and its versions.
pub(crate) fn touch(
    tx: &mut WriteTx<'_>,
    touch: &Touch<'_>,
    default_locale: &Locale,
) -> Result<(i64, Touched)> {
    let row = load_row(tx, touch.reference, DEFAULT_ROW)?;
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

/// The default row id of an existing document, or [`crate::StoreError::NotFound`].
pub(crate) fn require_document(
    conn: &rusqlite::Connection,
    reference: &DocumentReference,
) -> Result<i64> {
    default_row_id(conn, reference)?.ok_or_else(|| unknown_document(reference))
}
