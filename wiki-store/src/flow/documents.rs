//! Saving and reading documents, over [`DocumentRows`] (writes) and [`DocumentReads`] (reads).
//!
//! A save reads the default row first (locked until the write ends on PostgreSQL), asks whether
//! the wiki exists only when that row is missing (an existing row proves it, by its foreign
//! key), reads the translation row it addresses, plans, then writes the row with its revision
//! and replaces its links. Reads route a locale exactly ([`crate::plan::document::read_target`]).

use crate::Result;
use crate::api::DocumentStore;
use crate::backend::Backend;
use crate::flow::Transaction;
use crate::model::document::{Document, DocumentLocales, DocumentSave, SaveOutcome};
use crate::model::history::{HistoryPage, Revision, RevisionDiff, RevisionInfo};
use crate::model::link::LinkTarget;
use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::plan::document::{
    RowWrite, SavePlan, all_unchanged, plan_save, target_row, unknown_document, unknown_revision,
    validate_save,
};
use crate::plan::wiki::unknown_wiki;
use crate::reference::DocumentReference;
use crate::stored::{self, DEFAULT_ROW, StoredRow};

/// What a document save reads and writes inside a backend's write transaction.
pub(crate) trait DocumentRows: Transaction {
    /// One row by reference and stored locale (`""` for the default row), locked for the rest
    /// of the transaction where the backend locks rows.
    fn lock_row(
        &mut self,
        reference: &DocumentReference,
        locale: &str,
    ) -> Result<Option<StoredRow>>;

    /// Writes a planned row version (updates row `id`, or inserts the row for `None`) with its
    /// revision; returns the row's id. Links are not touched.
    fn write_row(&mut self, write: &RowWrite<'_>, id: Option<i64>) -> Result<i64>;

    /// Makes the links of row `source_id` exactly `links`, in order.
    fn replace_links(&mut self, source_id: i64, links: &[LinkTarget]) -> Result<()>;
}

/// Saves one row inside the transaction, as [`crate::plan::document`] plans it. Validation must
/// have run ([`crate::plan::document::validate_save`]).
pub(crate) fn save<T: DocumentRows>(
    tx: &mut T,
    save: &DocumentSave,
    default_locale: &Locale,
) -> Result<SaveOutcome> {
    let reference = &save.reference;
    let default = tx.lock_row(reference, DEFAULT_ROW)?;
    // An existing row proves its wiki exists (its foreign key); only a creation asks.
    if default.is_none() && !tx.reads().wiki_exists(reference.wiki())? {
        return Err(unknown_wiki(reference.wiki()));
    }
    let translation = target_row(save, default.as_ref().map(StoredRow::view).as_ref())?;
    let current = match translation {
        None => None,
        Some(locale) => tx.lock_row(reference, locale.as_str())?,
    };
    let target = if translation.is_some() {
        current.as_ref()
    } else {
        default.as_ref()
    };
    let plan = plan_save(
        save,
        translation,
        target.map(StoredRow::view),
        default.as_ref().map(StoredRow::view),
        default_locale,
    )?;
    match plan {
        SavePlan::Unchanged(version) => Ok(SaveOutcome::Unchanged { version }),
        SavePlan::Write(write) => {
            let id = write_row(tx, &write, target.map(|row| row.id))?;
            tx.replace_links(id, &write.links())?;
            Ok(write.outcome())
        }
    }
}

/// Writes a planned row version (updates row `id`, or inserts the row for `None`) with its
/// revision and queues its event; the row's id. A default row's structure is recorded: what its
/// previous revision in this transaction left first, this one's once final. Links are the
/// caller's: a content save replaces them, a touch of the owning document keeps them.
pub(crate) fn write_row<T: DocumentRows>(
    tx: &mut T,
    write: &RowWrite<'_>,
    id: Option<i64>,
) -> Result<i64> {
    if let Some(id) = id {
        tx.settle(id)?;
    }
    let id = tx.write_row(write, id)?;
    if write.translation.is_none() {
        tx.revised(write.reference.wiki().clone(), id, write.version);
    }
    let (wiki, event) = write.event();
    tx.emit(wiki, event);
    Ok(id)
}

/// A document as a read finds it: the row a request addresses, the document's default language
/// and its translations' stored locales, in order.
pub(crate) struct Found {
    pub(crate) row: StoredRow,
    pub(crate) default_language: String,
    pub(crate) translations: Vec<String>,
}

/// What document reads fetch inside one read (one snapshot).
pub(crate) trait DocumentReads {
    /// Whether the wiki exists.
    fn wiki_exists(&mut self, wiki: &WikiId) -> Result<bool>;

    /// The id of a document's default row: what attachments, objects and page rights hang on.
    fn default_row_id(&mut self, reference: &DocumentReference) -> Result<Option<i64>>;

    /// The id of an existing document's default row, or [`crate::StoreError::NotFound`].
    fn require_document(&mut self, reference: &DocumentReference) -> Result<i64> {
        self.default_row_id(reference)?
            .ok_or_else(|| unknown_document(reference))
    }

    /// The row an exact-match locale request addresses (the default row for `None` or the
    /// default language, else that translation), with the document's default language and
    /// translations; `None` when the document or the translation is missing.
    fn find(
        &mut self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<Found>>;

    /// Just the row a request addresses, as [`DocumentReads::find`] routes it (history reads).
    fn resolve_row(
        &mut self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<StoredRow>> {
        Ok(self.find(reference, locale)?.map(|found| found.row))
    }
}

/// What history reads fetch of a row's revisions.
pub(crate) trait RevisionReads: DocumentReads {
    /// How many revisions row `row_id` has.
    fn revision_count(&mut self, row_id: i64) -> Result<u64>;

    /// Row `row_id`'s revisions, newest first, `limit` of them after skipping `offset`.
    fn revision_infos(
        &mut self,
        row_id: i64,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<RevisionInfo>>;

    /// One revision of row `row_id` in full, if it exists.
    fn revision(&mut self, row_id: i64, version: Version) -> Result<Option<Revision>>;
}

impl<B: Backend> DocumentStore for B {
    fn save_document(&self, save: &DocumentSave) -> Result<SaveOutcome> {
        validate_save(save, &self.config().limits)?;
        let default_locale = &self.config().default_locale;
        self.write(|tx| {
            let outcome = self::save(tx, save, default_locale)?;
            // A save that changes nothing leaves the change sequence alone.
            if matches!(outcome, SaveOutcome::Unchanged { .. }) {
                tx.nothing_changed();
            }
            Ok(outcome)
        })
    }

    fn save_documents(&self, saves: &[DocumentSave]) -> Result<Vec<SaveOutcome>> {
        for save in saves {
            validate_save(save, &self.config().limits)?;
        }
        let default_locale = &self.config().default_locale;
        self.write(|tx| {
            let outcomes = saves
                .iter()
                .map(|one| save(tx, one, default_locale))
                .collect::<Result<Vec<_>>>()?;
            if all_unchanged(outcomes.iter()) {
                tx.nothing_changed();
            }
            Ok(outcomes)
        })
    }

    fn document(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<Document>> {
        let Some(found) = self.read(|rows| rows.find(reference, locale))? else {
            return Ok(None);
        };
        let default_locale = stored::locale(&found.default_language)?;
        let translations = locales(&found.translations)?;
        found
            .row
            .into_document(reference, default_locale, translations)
            .map(Some)
    }

    fn document_locales(&self, reference: &DocumentReference) -> Result<Option<DocumentLocales>> {
        let Some(found) = self.read(|rows| rows.find(reference, None))? else {
            return Ok(None);
        };
        Ok(Some(DocumentLocales {
            default_locale: stored::locale(&found.default_language)?,
            translations: locales(&found.translations)?,
        }))
    }

    fn history(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
        offset: usize,
        limit: usize,
    ) -> Result<Option<HistoryPage>> {
        self.snapshot(|rows| {
            let Some(row) = rows.resolve_row(reference, locale)? else {
                return Ok(None);
            };
            Ok(Some(HistoryPage {
                current: row.version,
                total: rows.revision_count(row.id)?,
                revisions: rows.revision_infos(row.id, offset, limit)?,
            }))
        })
    }

    fn revision(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
        version: Version,
    ) -> Result<Option<Revision>> {
        self.snapshot(|rows| match rows.resolve_row(reference, locale)? {
            Some(row) => rows.revision(row.id, version),
            None => Ok(None),
        })
    }

    fn diff(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
        from: Version,
        to: Version,
    ) -> Result<RevisionDiff> {
        // The two revisions are read in one snapshot and compared after it has ended.
        let (old, new, translation) = self.snapshot(|rows| {
            let row = rows
                .resolve_row(reference, locale)?
                .ok_or_else(|| unknown_document(reference))?;
            let old = rows
                .revision(row.id, from)?
                .ok_or_else(|| unknown_revision(from))?;
            let new = rows
                .revision(row.id, to)?
                .ok_or_else(|| unknown_revision(to))?;
            Ok((old, new, row.locale != DEFAULT_ROW))
        })?;
        Ok(crate::history::diff(old, new, translation))
    }
}

fn locales(values: &[String]) -> Result<Vec<Locale>> {
    values.iter().map(|value| stored::locale(value)).collect()
}
