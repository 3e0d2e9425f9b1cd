//! Vector indexes: entries derived from document rows, kept beside them.

use crate::Result;
use crate::model::locale::Locale;
use crate::model::vector::{ScannedVector, VectorBacklog, VectorChanges, VectorIndex, VectorRow};
use crate::reference::DocumentReference;

/// Per-wiki, named sets of vectors computed from document rows (see [`crate::model::vector`]).
///
/// The store keeps what a caller computed and tells it what to recompute; it never computes.
/// Entries follow their row: deleting a document (or its wiki) deletes them, and a save makes
/// the row stale until the caller stores entries for the new version. Writing entries is not a
/// change a server caches: no change event, the change sequence stays where it is. It advances
/// the farm's vector sequence instead ([`VectorStore::vector_seq`]), which moves the commit
/// marker ([`crate::ChangeFeed::commit_marker`]) of every process, so one holding vectors in
/// memory learns cheaply that another stored some, and [`VectorStore::vector_changes`] says
/// which.
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
    /// had entries. Advances the vector sequence when it removed any.
    fn clear_vectors(&self, index: &VectorIndex) -> Result<u64>;

    /// The farm's vector sequence: advanced by every [`VectorStore::put_vector_row`] that
    /// stored entries and every [`VectorStore::clear_vectors`] that removed some, in any
    /// process, committed in its order.
    fn vector_seq(&self) -> Result<u64>;

    /// The rows of `index` whose entries were stored after vector sequence value `since`
    /// (the first `limit`, oldest write first) and the sequence as of the read. Rows removed
    /// since (deleted documents, a clear) are not listed: a caller that must forget them
    /// rereads the index.
    fn vector_changes(
        &self,
        index: &VectorIndex,
        since: u64,
        limit: usize,
    ) -> Result<VectorChanges>;
}
