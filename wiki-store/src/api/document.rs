//! Documents, translations and their history.

use crate::Result;
use crate::model::document::{Document, DocumentLocales, DocumentSave, SaveOutcome};
use crate::model::history::{HistoryPage, Revision, RevisionDiff};
use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::reference::DocumentReference;

/// Reading and saving documents (every save a new version), their translations and history.
///
/// Locale routing is exact-match: `None`, or the document's default locale, addresses the default
/// row; any other locale addresses that translation row only (no fallback). Rights are not checked
/// here: callers authorize on the locale-free reference first.
pub trait DocumentStore {
    /// Saves one row as a new version, in one transaction: the compare-and-set on
    /// [`DocumentSave::expected`], the row, its revision, its links and its search index entry.
    /// Input is validated (sizes, NUL characters, syntax id, author) before anything is written.
    /// A save that changes nothing returns [`SaveOutcome::Unchanged`] and writes nothing.
    fn save_document(&self, save: &DocumentSave) -> Result<SaveOutcome>;

    /// Saves several rows in one transaction, all or nothing (imports, generators).
    fn save_documents(&self, saves: &[DocumentSave]) -> Result<Vec<SaveOutcome>>;

    /// One row of a document, or `None` when the document or that translation does not exist.
    fn document(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<Document>>;

    /// The default locale and translations of a document, or `None` when it does not exist.
    fn document_locales(&self, reference: &DocumentReference) -> Result<Option<DocumentLocales>>;

    /// A slice of a row's history, newest first, or `None` when the row does not exist.
    fn history(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
        offset: usize,
        limit: usize,
    ) -> Result<Option<HistoryPage>>;

    /// One revision of a row with its full content, or `None`.
    fn revision(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
        version: Version,
    ) -> Result<Option<Revision>>;

    /// The unified diff (3 lines of context) from revision `from` to revision `to` of one row;
    /// [`crate::StoreError::NotFound`] names a missing revision.
    fn diff(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
        from: Version,
        to: Version,
    ) -> Result<RevisionDiff>;
}
