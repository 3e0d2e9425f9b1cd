//! Vector indexes: entries derived from document rows, kept beside them.

use crate::Result;
use crate::model::locale::Locale;
use crate::model::vector::{ScannedVector, VectorBacklog, VectorIndex, VectorRow};
use crate::reference::DocumentReference;

/// Per-wiki, named sets of vectors computed from document rows (see [`crate::model::vector`]).
///
/// The store keeps what a caller computed and tells it what to recompute; it never computes.
/// Entries follow their row: deleting a document (or its wiki) deletes them, and a save makes
/// the row stale until the caller stores entries for the new version. Writing entries is not a
/// change a server caches: no change event, the change sequence stays where it is.
pub trait VectorStore {
    /// The rows of `index`'s wiki whose entries are missing or computed from another version:
    /// the first `limit`, oldest first, and how many there are in all. Hidden pages count.
    fn vector_backlog(&self, index: &VectorIndex, limit: usize) -> Result<VectorBacklog>;

    /// The entries stored for one row (exactly that row: `None` is the default row), whatever
    /// version they came from; `None` when none are stored.
    fn vector_row(
        &self,
        index: &VectorIndex,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<VectorRow>>;

    /// Replaces the entries of one row with `row`'s, in one transaction. Returns `false`, storing
    /// nothing, when the row no longer exists (deleted while its entries were computed). The
    /// row's wiki must be `index`'s; the entries are checked first
    /// ([`crate::InvalidInput::VectorIndex`]).
    fn put_vector_row(&self, index: &VectorIndex, row: &VectorRow) -> Result<bool>;

    /// Every entry of `index`, row by row, in no promised order; `visit` returns `false` to
    /// stop early.
    fn scan_vectors(
        &self,
        index: &VectorIndex,
        visit: &mut dyn FnMut(ScannedVector) -> bool,
    ) -> Result<()>;

    /// Deletes every entry of `index` (a rebuild starts from nothing); returns how many rows
    /// had entries.
    fn clear_vectors(&self, index: &VectorIndex) -> Result<u64>;
}
