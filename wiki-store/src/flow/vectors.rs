//! Vector indexes over any backend: entries checked by [`crate::plan::vector`] first, written in
//! transactions that change nothing a server caches but advance the vector sequence, read back
//! row by row or scanned in pages (so no result set holds a whole index and the visitor runs
//! with no connection held).

use crate::Result;
use crate::api::VectorStore;
use crate::backend::Backend;
use crate::flow::Transaction;
use crate::model::locale::Locale;
use crate::model::vector::{
    ScannedVector, StaleRow, VectorBacklog, VectorChanges, VectorEntry, VectorIndex, VectorRow,
    WrittenRow,
};
use crate::model::version::Version;
use crate::plan::vector::{validate_index, validate_row};
use crate::reference::DocumentReference;

/// Entries a scan reads per statement.
const SCAN_PAGE: usize = 512;

/// Where a scan resumes: after this row id and entry key.
pub(crate) type ScanKey = (i64, String);

/// What vector writes read and write.
pub(crate) trait VectorRows: Transaction {
    /// The id of exactly one row (`None`: the default row), held against deletion for the rest
    /// of the transaction where the backend locks rows (a plain read where the write
    /// transaction already excludes every other writer).
    fn hold_row(
        &mut self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<i64>> {
        self.reads().row_id(reference, locale)
    }

    /// Advances the vector sequence (the row stays locked to the commit, so vector writes
    /// commit in the order of their values); the new value.
    fn bump_vector_seq(&mut self) -> Result<u64>;

    /// Replaces the entries of `index` for row `document_id` with `entries`, computed from
    /// `version`, stamped with vector sequence value `written`.
    fn replace_vectors(
        &mut self,
        index: &str,
        document_id: i64,
        version: Version,
        written: u64,
        entries: &[VectorEntry],
    ) -> Result<()>;

    /// Deletes every entry of `index`; how many rows had some.
    fn delete_vectors(&mut self, index: &VectorIndex) -> Result<u64>;
}

/// What vector reads fetch.
pub(crate) trait VectorReads {
    /// How many rows of `index`'s wiki have no entries or entries of another version.
    fn stale_count(&mut self, index: &VectorIndex) -> Result<u64>;

    /// The first `limit` of those rows, oldest first.
    fn stale_rows(&mut self, index: &VectorIndex, limit: usize) -> Result<Vec<StaleRow>>;

    /// The id of exactly one row (`None`: the default row), if it exists.
    fn row_id(
        &mut self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<i64>>;

    /// The version the entries of `index` for row `document_id` were computed from, if any.
    fn vector_version(&mut self, index: &str, document_id: i64) -> Result<Option<Version>>;

    /// The entries of `index` for row `document_id`, by key.
    fn vector_entries(&mut self, index: &str, document_id: i64) -> Result<Vec<VectorEntry>>;

    /// Up to `limit` entries of `index` after `after` (from the start for `None`), ordered by
    /// row id and key, each with its key.
    fn vector_page(
        &mut self,
        index: &VectorIndex,
        after: Option<&ScanKey>,
        limit: usize,
    ) -> Result<Vec<(ScanKey, ScannedVector)>>;

    /// The vector sequence.
    fn vector_seq(&mut self) -> Result<u64>;

    /// Up to `limit` rows of `index` whose entries were stored after sequence value `since`,
    /// oldest write first.
    fn written_rows(
        &mut self,
        index: &VectorIndex,
        since: u64,
        limit: usize,
    ) -> Result<Vec<WrittenRow>>;
}

impl<B: Backend> VectorStore for B {
    fn vector_backlog(&self, index: &VectorIndex, limit: usize) -> Result<VectorBacklog> {
        validate_index(index)?;
        self.snapshot(|rows| {
            Ok(VectorBacklog {
                total: rows.stale_count(index)?,
                rows: rows.stale_rows(index, limit)?,
            })
        })
    }

    fn vector_row(
        &self,
        index: &VectorIndex,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<VectorRow>> {
        validate_index(index)?;
        self.snapshot(|rows| {
            let Some(id) = rows.row_id(reference, locale)? else {
                return Ok(None);
            };
            let Some(version) = rows.vector_version(&index.name, id)? else {
                return Ok(None);
            };
            Ok(Some(VectorRow {
                reference: reference.clone(),
                locale: locale.cloned(),
                version,
                entries: rows.vector_entries(&index.name, id)?,
            }))
        })
    }

    fn put_vector_row(&self, index: &VectorIndex, row: &VectorRow) -> Result<bool> {
        validate_row(index, row)?;
        self.write(|tx| {
            tx.nothing_changed();
            let Some(id) = tx.hold_row(&row.reference, row.locale.as_ref())? else {
                return Ok(false);
            };
            let written = tx.bump_vector_seq()?;
            tx.replace_vectors(&index.name, id, row.version, written, &row.entries)?;
            Ok(true)
        })
    }

    fn scan_vectors(
        &self,
        index: &VectorIndex,
        visit: &mut dyn FnMut(ScannedVector) -> bool,
    ) -> Result<()> {
        validate_index(index)?;
        let mut after = None;
        loop {
            let page = self.read(|rows| rows.vector_page(index, after.as_ref(), SCAN_PAGE))?;
            let full = page.len() >= SCAN_PAGE;
            for (key, scanned) in page {
                after = Some(key);
                if !visit(scanned) {
                    return Ok(());
                }
            }
            if !full {
                return Ok(());
            }
        }
    }

    fn clear_vectors(&self, index: &VectorIndex) -> Result<u64> {
        validate_index(index)?;
        self.write(|tx| {
            tx.nothing_changed();
            let removed = tx.delete_vectors(index)?;
            if removed > 0 {
                tx.bump_vector_seq()?;
            }
            Ok(removed)
        })
    }

    fn vector_seq(&self) -> Result<u64> {
        self.read(|rows| rows.vector_seq())
    }

    /// The sequence and the rows are read in one snapshot: every write up to the sequence read
    /// is visible to the row read, as vector writes commit in the order of their values.
    fn vector_changes(
        &self,
        index: &VectorIndex,
        since: u64,
        limit: usize,
    ) -> Result<VectorChanges> {
        validate_index(index)?;
        self.snapshot(|rows| {
            let seq = rows.vector_seq()?;
            let mut written = rows.written_rows(index, since, limit.saturating_add(1))?;
            let more = written.len() > limit;
            written.truncate(limit);
            Ok(VectorChanges {
                seq,
                rows: written,
                more,
            })
        })
    }
}
