//! The document that owns attachments and objects. Writing either saves the document, as XWiki
//! does: a new version of its default row (minor unless asked), with the writer as author and
//! their comment in the history, under the same compare-and-set as a content save. The row's
//! content is unchanged, so the revision repeats it.

use rusqlite::params;

use crate::Result;
use crate::StoreError;
use crate::config::Limits;
use crate::error::Entity;
use crate::model::change::ChangeKind;
use crate::model::document::{DocumentSave, Expected, SaveOutcome};
use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::reference::DocumentReference;
use crate::sqlite::convert::{DbResultExt, corrupt, now_ms};
use crate::sqlite::documents::{
    DEFAULT_ROW, check_expected, default_row_id, load_row, save_in, validate_save,
};
use crate::sqlite::write::WriteTx;

/// How a write touches its owning document.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Touch<'a> {
    /// The document (its default row is touched).
    pub(crate) reference: &'a DocumentReference,
    /// Who writes.
    pub(crate) author: &'a str,
    /// The version comment.
    pub(crate) comment: &'a str,
    /// A major version instead of a minor one.
    pub(crate) major: bool,
    /// The compare-and-set condition on the default row.
    pub(crate) expected: Expected,
    /// A new title, if the write sets one.
    pub(crate) title: Option<&'a str>,
    /// Whether a missing document is created (empty content) instead of refused.
    pub(crate) create: bool,
    /// Whether a document this touch creates is hidden (the store's own configuration pages).
    pub(crate) hidden_on_create: bool,
}

/// The owning row after the touch.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Touched {
    /// The default row's id.
    pub(crate) id: i64,
    /// Its version before the write (`None`: this write created it).
    pub(crate) previous: Option<Version>,
    /// Its version after the write.
    pub(crate) version: Version,
}

impl Touched {
    /// The touch as a document save outcome.
    pub(crate) fn outcome(self) -> SaveOutcome {
        match self.previous {
            Some(previous) => SaveOutcome::Updated {
                previous,
                version: self.version,
            },
            None => SaveOutcome::Created {
                version: self.version,
            },
        }
    }
}

impl Touch<'_> {
    fn as_save(&self) -> DocumentSave {
        let save = DocumentSave::new(self.reference.clone(), "", self.author)
            .comment(self.comment)
            .expected(Expected::Absent)
            .hidden(self.hidden_on_create);
        match self.title {
            Some(title) => save.title(title),
            None => save,
        }
    }

    /// Checks author, comment and title against the limits, before any transaction.
    pub(crate) fn validate(&self, limits: &Limits) -> Result<()> {
        validate_save(&self.as_save(), limits)
    }

    /// For a write whose own data is already as asked: `Some(version)` when the owning document
    /// exists and this touch would leave it as it is too (no new title), `None` when it must be
    /// saved after all (it is missing, or gets a new title). Writes nothing.
    ///
    /// The compare-and-set is checked first, as [`save_in`] does before its own no-op test: a
    /// stale `expected` is refused even when nothing would change, so an agent acting on an old
    /// read always learns that the document moved on.
    pub(crate) fn untouched(&self, tx: &WriteTx<'_>) -> Result<Option<Version>> {
        let Some(row) = load_row(tx, self.reference, DEFAULT_ROW)? else {
            return Ok(None);
        };
        check_expected(self.expected, Some(row.version))?;
        let same_title = self.title.is_none_or(|title| title == row.title);
        Ok(same_title.then_some(row.version))
    }

    /// Saves the owning document inside `tx`: a new version of the existing default row, or (with
    /// `create`) a new empty document at 1.1.
    pub(crate) fn apply(&self, tx: &mut WriteTx<'_>, default_locale: &Locale) -> Result<Touched> {
        let Some(row) = load_row(tx, self.reference, DEFAULT_ROW)? else {
            check_expected(self.expected, None)?;
            if !self.create {
                return Err(StoreError::not_found(Entity::Document, self.reference));
            }
            let outcome = save_in(tx, &self.as_save(), default_locale)?;
            let id = default_row_id(tx, self.reference)?
                .ok_or_else(|| corrupt("created document row"))?;
            return Ok(Touched {
                id,
                previous: None,
                version: outcome.version(),
            });
        };
        check_expected(self.expected, Some(row.version))?;
        let version = row.version.next(self.major);
        let title = self.title.unwrap_or(&row.title);
        let now = now_ms();
        tx.prepare_cached(
            "UPDATE documents SET title = ?2, author = ?3, updated_ms = ?4, version_major = ?5, \
             version_minor = ?6 WHERE id = ?1",
        )
        .db()?
        .execute(params![
            row.id,
            title,
            self.author,
            now,
            version.major,
            version.minor
        ])
        .db()?;
        tx.prepare_cached(
            "INSERT INTO revisions (document_id, major, minor, title, content, syntax, hidden, author, \
             comment, saved_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        )
        .db()?
        .execute(params![
            row.id,
            version.major,
            version.minor,
            title,
            row.content,
            row.syntax,
            row.hidden,
            self.author,
            self.comment,
            now
        ])
        .db()?;
        tx.emit(
            self.reference.wiki().clone(),
            ChangeKind::DocumentSaved {
                reference: self.reference.clone(),
                locale: None,
                version,
            },
        );
        Ok(Touched {
            id: row.id,
            previous: Some(row.version),
            version,
        })
    }
}

/// The default row id of an existing document, or [`StoreError::NotFound`].
pub(crate) fn require_document(
    conn: &rusqlite::Connection,
    reference: &DocumentReference,
) -> Result<i64> {
    default_row_id(conn, reference)?
        .ok_or_else(|| StoreError::not_found(Entity::Document, reference))
}
