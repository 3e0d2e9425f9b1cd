//! The document that owns attachments and objects, as reads find it (writes take it through
//! [`crate::flow::owner`]).

use crate::Result;
use crate::plan::document::unknown_document;
use crate::reference::DocumentReference;
use crate::sqlite::documents::default_row_id;

/// The default row id of an existing document, or [`crate::StoreError::NotFound`].
pub(crate) fn require_document(
    conn: &rusqlite::Connection,
    reference: &DocumentReference,
) -> Result<i64> {
    default_row_id(conn, reference)?.ok_or_else(|| unknown_document(reference))
}
