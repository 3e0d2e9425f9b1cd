//! The document that owns attachments and objects, as reads find it (writes take it through
//! [`crate::flow::owner`], locking its default row first).

use crate::Result;
use crate::plan::document::unknown_document;
use crate::postgres::documents::default_row_id;
use crate::postgres::pool::Conn;
use crate::reference::DocumentReference;

/// The default row id of an existing document, or [`crate::StoreError::NotFound`] (reads).
pub(crate) fn require_document(conn: &mut Conn, reference: &DocumentReference) -> Result<i64> {
    default_row_id(conn, reference)?.ok_or_else(|| unknown_document(reference))
}
