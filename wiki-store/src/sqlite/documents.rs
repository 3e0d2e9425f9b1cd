//! Documents: saving rows (compare-and-set, revision, links and search index in one transaction)
//! and reading them with exact-match locale routing.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::Result;
use crate::api::DocumentStore;
use crate::model::document::{Document, DocumentLocales, DocumentSave, SaveOutcome};
use crate::model::history::{HistoryPage, Revision, RevisionDiff};
use crate::model::link::LinkTarget;
use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::plan::document::{
    RowWrite, SavePlan, all_unchanged, plan_save, read_target, target_row, unknown_document,
    unknown_revision, validate_save,
};
use crate::plan::wiki::unknown_wiki;
use crate::reference::DocumentReference;
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::history;
use crate::sqlite::write::WriteTx;
use crate::stored::{self, DEFAULT_ROW, StoredRow, corrupt, now_ms, to_i64};

const ROW_COLUMNS: &str = "id, locale, language, title, content, syntax, hidden, creator, author, created_ms, \
                           updated_ms, version_major, version_minor";

fn stored_row(row: &Row<'_>) -> rusqlite::Result<StoredRow> {
    Ok(StoredRow {
        id: row.get(0)?,
        locale: row.get(1)?,
        language: row.get(2)?,
        title: row.get(3)?,
        content: row.get(4)?,
        syntax: row.get(5)?,
        hidden: row.get(6)?,
        creator: row.get(7)?,
        author: row.get(8)?,
        created_ms: row.get(9)?,
        updated_ms: row.get(10)?,
        version: Version {
            major: row.get(11)?,
            minor: row.get(12)?,
        },
    })
}

/// Loads one row by reference and stored locale (`""` for the default row).
pub(crate) fn load_row(
    conn: &Connection,
    reference: &DocumentReference,
    locale: &str,
) -> Result<Option<StoredRow>> {
    let sql = format!(
        "SELECT {ROW_COLUMNS} FROM documents WHERE wiki = ?1 AND space = ?2 AND name = ?3 AND locale = ?4"
    );
    conn.prepare_cached(&sql)
        .db()?
        .query_row(
            params![
                reference.wiki().as_str(),
                reference.space().to_string(),
                reference.name(),
                locale
            ],
            stored_row,
        )
        .optional()
        .db()
}

/// The id of a document's default row: what attachments, objects and page rights hang on.
pub(crate) fn default_row_id(
    conn: &Connection,
    reference: &DocumentReference,
) -> Result<Option<i64>> {
    conn.prepare_cached(
        "SELECT id FROM documents WHERE wiki = ?1 AND space = ?2 AND name = ?3 AND locale = ''",
    )
    .db()?
    .query_row(
        params![
            reference.wiki().as_str(),
            reference.space().to_string(),
            reference.name()
        ],
        |row| row.get(0),
    )
    .optional()
    .db()
}

/// Resolves an exact-match locale request to a row: the default row for `None` or the default
/// language, else the translation row. `None` when the document or translation is missing.
pub(crate) fn resolve_row(
    conn: &Connection,
    reference: &DocumentReference,
    locale: Option<&Locale>,
) -> Result<Option<StoredRow>> {
    let Some(default) = load_row(conn, reference, DEFAULT_ROW)? else {
        return Ok(None);
    };
    match read_target(locale, &default.language) {
        Some(translation) => load_row(conn, reference, translation.as_str()),
        None => Ok(Some(default)),
    }
}

fn translations(conn: &Connection, reference: &DocumentReference) -> Result<Vec<Locale>> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT locale FROM documents WHERE wiki = ?1 AND space = ?2 AND name = ?3 AND locale <> '' ORDER BY locale",
        )
        .db()?;
    let rows = stmt
        .query_map(
            params![
                reference.wiki().as_str(),
                reference.space().to_string(),
                reference.name()
            ],
            |row| row.get::<_, String>(0),
        )
        .db()?;
    let mut locales = Vec::new();
    for locale in rows {
        locales.push(stored::locale(&locale.db()?)?);
    }
    Ok(locales)
}

/// Saves one row inside `tx`, as [`crate::plan::document`] plans it. Validation must have run
/// ([`validate_save`]).
pub(crate) fn save_in(
    tx: &mut WriteTx<'_>,
    save: &DocumentSave,
    default_locale: &Locale,
) -> Result<SaveOutcome> {
    let reference = &save.reference;
    let wiki_exists = tx
        .prepare_cached("SELECT 1 FROM wikis WHERE id = ?1")
        .db()?
        .query_row([reference.wiki().as_str()], |_| Ok(()))
        .optional()
        .db()?
        .is_some();
    if !wiki_exists {
        return Err(unknown_wiki(reference.wiki()));
    }
    let default = load_row(tx, reference, DEFAULT_ROW)?;
    let translation = target_row(save, default.as_ref().map(StoredRow::view).as_ref())?;
    let current = match translation {
        None => None,
        Some(locale) => load_row(tx, reference, locale.as_str())?,
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
            replace_links(tx, id, &write.links())?;
            Ok(write.outcome())
        }
    }
}

/// Writes a planned row version: updates the row `id` or (for `None`) inserts it, records its
/// revision and queues its event. Returns the row's id. Links are the caller's: a content save
/// replaces them, a touch of the owning document keeps them.
pub(crate) fn write_row(
    tx: &mut WriteTx<'_>,
    write: &RowWrite<'_>,
    id: Option<i64>,
) -> Result<i64> {
    let now = now_ms();
    let version = write.version;
    let id = match id {
        Some(id) => {
            tx.settle(id)?;
            tx.prepare_cached(
                "UPDATE documents SET title = ?2, content = ?3, syntax = ?4, hidden = ?5, author = ?6, \
                 updated_ms = ?7, version_major = ?8, version_minor = ?9 WHERE id = ?1",
            )
            .db()?
            .execute(params![id, write.title, write.content, write.syntax, write.hidden, write.author, now, version.major, version.minor])
            .db()?;
            id
        }
        None => {
            let reference = write.reference;
            tx.prepare_cached(
                "INSERT INTO documents (wiki, space, name, locale, language, title, content, syntax, hidden, \
                 creator, author, created_ms, updated_ms, version_major, version_minor) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11, ?11, ?12, ?13) RETURNING id",
            )
            .db()?
            .query_row(
                params![
                    reference.wiki().as_str(),
                    reference.space().to_string(),
                    reference.name(),
                    stored::row_key(write.translation),
                    write.language,
                    write.title,
                    write.content,
                    write.syntax,
                    write.hidden,
                    write.author,
                    now,
                    version.major,
                    version.minor
                ],
                |row| row.get(0),
            )
            .db()?
        }
    };
    tx.prepare_cached(
        "INSERT INTO revisions (document_id, major, minor, title, content, syntax, hidden, author, comment, saved_ms) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )
    .db()?
    .execute(params![
        id,
        version.major,
        version.minor,
        write.title,
        write.content,
        write.syntax,
        write.hidden,
        write.author,
        write.comment,
        now
    ])
    .db()?;
    if write.translation.is_none() {
        tx.revised(write.reference.wiki().clone(), id, version);
    }
    let (wiki, event) = write.event();
    tx.emit(wiki, event);
    Ok(id)
}

fn replace_links(conn: &Connection, source_id: i64, links: &[LinkTarget]) -> Result<()> {
    conn.prepare_cached("DELETE FROM links WHERE source_id = ?1")
        .db()?
        .execute([source_id])
        .db()?;
    let mut insert = conn
        .prepare_cached(
            "INSERT INTO links (source_id, position, target_wiki, target_space, target_name, attachment) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )
        .db()?;
    for (position, link) in links.iter().enumerate() {
        let (target, attachment) = match link {
            LinkTarget::Document(target) => (target, None),
            LinkTarget::Attachment { document, name } => (document, Some(name.as_str())),
        };
        insert
            .execute(params![
                source_id,
                to_i64(position),
                target.wiki().as_str(),
                target.space().to_string(),
                target.name(),
                attachment
            ])
            .db()?;
    }
    Ok(())
}

fn to_document(
    conn: &Connection,
    reference: &DocumentReference,
    row: StoredRow,
) -> Result<Document> {
    let default_locale = if row.locale == DEFAULT_ROW {
        stored::locale(&row.language)?
    } else {
        let default = load_row(conn, reference, DEFAULT_ROW)?
            .ok_or_else(|| corrupt("translation without default row"))?;
        stored::locale(&default.language)?
    };
    let translations = translations(conn, reference)?;
    row.into_document(reference, default_locale, translations)
}

impl DocumentStore for SqliteStore {
    fn save_document(&self, save: &DocumentSave) -> Result<SaveOutcome> {
        validate_save(save, &self.config().limits)?;
        self.write(|tx| {
            let outcome = save_in(tx, save, &self.config().default_locale)?;
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
        self.write(|tx| {
            let mut outcomes = Vec::with_capacity(saves.len());
            for save in saves {
                outcomes.push(save_in(tx, save, &self.config().default_locale)?);
            }
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
        self.read(|conn| match resolve_row(conn, reference, locale)? {
            Some(row) => to_document(conn, reference, row).map(Some),
            None => Ok(None),
        })
    }

    fn document_locales(&self, reference: &DocumentReference) -> Result<Option<DocumentLocales>> {
        self.read(|conn| {
            let Some(default) = load_row(conn, reference, DEFAULT_ROW)? else {
                return Ok(None);
            };
            Ok(Some(DocumentLocales {
                default_locale: stored::locale(&default.language)?,
                translations: translations(conn, reference)?,
            }))
        })
    }

    fn history(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
        offset: usize,
        limit: usize,
    ) -> Result<Option<HistoryPage>> {
        self.read(|conn| {
            let Some(row) = resolve_row(conn, reference, locale)? else {
                return Ok(None);
            };
            history::page(conn, row.id, row.version, offset, limit).map(Some)
        })
    }

    fn revision(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
        version: Version,
    ) -> Result<Option<Revision>> {
        self.read(|conn| match resolve_row(conn, reference, locale)? {
            Some(row) => history::revision(conn, row.id, version),
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
        let (old, new, translation) = self.read(|conn| {
            let row =
                resolve_row(conn, reference, locale)?.ok_or_else(|| unknown_document(reference))?;
            let load = |version: Version| {
                history::revision(conn, row.id, version)?.ok_or_else(|| unknown_revision(version))
            };
            Ok((load(from)?, load(to)?, row.locale != DEFAULT_ROW))
        })?;
        Ok(crate::history::diff(old, new, translation))
    }
}
