//! Documents: saving rows (compare-and-set, revision, links and search index in one transaction)
//! and reading them with exact-match locale routing.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::api::DocumentStore;
use crate::config::Limits;
use crate::error::{Entity, Field, InvalidInput};
use crate::links::extract_links;
use crate::model::change::ChangeKind;
use crate::model::document::{
    Document, DocumentLocales, DocumentSave, Expected, MARKDOWN_SYNTAX, SaveOutcome,
};
use crate::model::history::{HistoryPage, Revision, RevisionDiff};
use crate::model::link::LinkTarget;
use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::reference::DocumentReference;
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::{DbResultExt, corrupt, from_ms, now_ms};
use crate::sqlite::history;
use crate::sqlite::write::WriteTx;
use crate::{Result, StoreError};

/// The stored locale of a default row.
pub(crate) const DEFAULT_ROW: &str = "";

/// The current state of one stored row.
#[derive(Debug, Clone)]
pub(crate) struct StoredRow {
    pub(crate) id: i64,
    /// `""` for the default row.
    pub(crate) locale: String,
    pub(crate) language: String,
    pub(crate) title: String,
    pub(crate) content: String,
    pub(crate) syntax: String,
    pub(crate) hidden: bool,
    pub(crate) creator: String,
    pub(crate) author: String,
    pub(crate) created_ms: i64,
    pub(crate) updated_ms: i64,
    pub(crate) version: Version,
}

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
    match locale {
        Some(locale) if locale.as_str() != default.language => {
            load_row(conn, reference, locale.as_str())
        }
        _ => Ok(Some(default)),
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
        locales.push(stored_locale(&locale.db()?)?);
    }
    Ok(locales)
}

/// Parses a locale read back from the database; a value that no longer parses is corruption.
pub(crate) fn stored_locale(value: &str) -> Result<Locale> {
    Locale::parse(value).map_err(|_| corrupt("stored locale does not parse"))
}

/// Checks everything about a save that needs no database, so bad input never opens a transaction.
pub(crate) fn validate_save(save: &DocumentSave, limits: &Limits) -> Result<()> {
    check_text(Field::Content, &save.content, limits.max_content_chars)?;
    if let Some(title) = &save.title {
        check_text(Field::Title, title, limits.max_title_chars)?;
    }
    check_text(Field::Comment, &save.comment, limits.max_comment_chars)?;
    check_text(Field::Author, &save.author, limits.max_author_chars)?;
    if save.author.trim().is_empty() {
        return Err(InvalidInput::EmptyAuthor.into());
    }
    if let Some(syntax) = &save.syntax
        && !valid_syntax_id(syntax)
    {
        return Err(InvalidInput::SyntaxId.into());
    }
    Ok(())
}

/// Refuses text over `limit` characters or containing NUL.
pub(crate) fn check_text(field: Field, text: &str, limit: usize) -> Result<()> {
    // Byte length bounds the character count from above: count only when it could matter.
    if text.len() > limit {
        let actual = text.chars().count();
        if actual > limit {
            return Err(StoreError::TooLarge {
                field,
                limit,
                actual,
            });
        }
    }
    if text.contains('\0') {
        return Err(InvalidInput::NulCharacter(field).into());
    }
    Ok(())
}

fn valid_syntax_id(syntax: &str) -> bool {
    let part = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-' | '_'))
    };
    syntax.len() <= 64
        && syntax
            .split_once('/')
            .is_some_and(|(name, version)| part(name) && part(version))
}

/// Saves one row inside `tx`. Validation must have run ([`validate_save`]).
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
        return Err(StoreError::not_found(Entity::Wiki, reference.wiki()));
    }
    let default = load_row(tx, reference, DEFAULT_ROW)?;
    let target_locale = match (&save.locale, &default) {
        (None, _) => DEFAULT_ROW.to_owned(),
        (Some(locale), Some(default)) if locale.as_str() == default.language => {
            DEFAULT_ROW.to_owned()
        }
        (Some(locale), Some(_)) => locale.as_str().to_owned(),
        (Some(_), None) => return Err(InvalidInput::TranslationWithoutDefault.into()),
    };
    let current = if target_locale == DEFAULT_ROW {
        default.clone()
    } else {
        load_row(tx, reference, &target_locale)?
    };
    check_expected(save.expected, current.as_ref().map(|row| row.version))?;
    // A new document may not take a look-alike name (existing ones stay readable).
    if default.is_none()
        && let Some((what, reason)) = reference.look_alike_problem()
    {
        return Err(InvalidInput::Name { what, reason }.into());
    }

    let now = now_ms();
    match current {
        Some(row) => {
            let title = save.title.clone().unwrap_or_else(|| row.title.clone());
            let syntax = save.syntax.clone().unwrap_or_else(|| row.syntax.clone());
            let hidden = save.hidden.unwrap_or(row.hidden);
            if title == row.title
                && syntax == row.syntax
                && hidden == row.hidden
                && save.content == row.content
            {
                return Ok(SaveOutcome::Unchanged {
                    version: row.version,
                });
            }
            let version = row.version.next(save.major);
            tx.prepare_cached(
                "UPDATE documents SET title = ?2, content = ?3, syntax = ?4, hidden = ?5, author = ?6, \
                 updated_ms = ?7, version_major = ?8, version_minor = ?9 WHERE id = ?1",
            )
            .db()?
            .execute(params![row.id, title, save.content, syntax, hidden, save.author, now, version.major, version.minor])
            .db()?;
            let written = Written {
                id: row.id,
                title: &title,
                syntax: &syntax,
                hidden,
                version,
                now,
            };
            record(tx, save, &written, &target_locale)?;
            Ok(SaveOutcome::Updated {
                previous: row.version,
                version,
            })
        }
        None => {
            let title = save.title.clone().unwrap_or_default();
            let (language, inherited_syntax) = match &default {
                Some(default) => (target_locale.clone(), default.syntax.clone()),
                None => {
                    let language = save.default_locale.as_ref().unwrap_or(default_locale);
                    (language.as_str().to_owned(), MARKDOWN_SYNTAX.to_owned())
                }
            };
            let syntax = save.syntax.clone().unwrap_or(inherited_syntax);
            let hidden = save.hidden.unwrap_or(false);
            let version = Version::FIRST;
            let id: i64 = tx
                .prepare_cached(
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
                        target_locale,
                        language,
                        title,
                        save.content,
                        syntax,
                        hidden,
                        save.author,
                        now,
                        version.major,
                        version.minor
                    ],
                    |row| row.get(0),
                )
                .db()?;
            let written = Written {
                id,
                title: &title,
                syntax: &syntax,
                hidden,
                version,
                now,
            };
            record(tx, save, &written, &target_locale)?;
            Ok(SaveOutcome::Created { version })
        }
    }
}

/// Compares the caller's expectation with the row's current version.
pub(crate) fn check_expected(expected: Expected, actual: Option<Version>) -> Result<()> {
    let ok = match expected {
        Expected::Any => true,
        Expected::Absent => actual.is_none(),
        Expected::Version(version) => actual == Some(version),
    };
    if ok {
        return Ok(());
    }
    let expected = match expected {
        Expected::Version(version) => Some(version),
        Expected::Any | Expected::Absent => None,
    };
    Err(StoreError::VersionConflict { expected, actual })
}

/// What was just written to a row, for its revision and links.
struct Written<'a> {
    id: i64,
    title: &'a str,
    syntax: &'a str,
    hidden: bool,
    version: Version,
    now: i64,
}

/// Records the revision, replaces the row's links and queues the change event.
fn record(
    tx: &mut WriteTx<'_>,
    save: &DocumentSave,
    written: &Written<'_>,
    locale: &str,
) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO revisions (document_id, major, minor, title, content, syntax, hidden, author, comment, saved_ms) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )
    .db()?
    .execute(params![
        written.id,
        written.version.major,
        written.version.minor,
        written.title,
        save.content,
        written.syntax,
        written.hidden,
        save.author,
        save.comment,
        written.now
    ])
    .db()?;
    replace_links(
        tx,
        written.id,
        &extract_links(&save.content, &save.reference),
    )?;
    let locale = if locale == DEFAULT_ROW {
        None
    } else {
        Some(stored_locale(locale)?)
    };
    tx.emit(
        save.reference.wiki().clone(),
        ChangeKind::DocumentSaved {
            reference: save.reference.clone(),
            locale,
            version: written.version,
        },
    );
    Ok(())
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
                i64::try_from(position).unwrap_or(i64::MAX),
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
        stored_locale(&row.language)?
    } else {
        let default = load_row(conn, reference, DEFAULT_ROW)?
            .ok_or_else(|| corrupt("translation without default row"))?;
        stored_locale(&default.language)?
    };
    let locale = if row.locale == DEFAULT_ROW {
        None
    } else {
        Some(stored_locale(&row.locale)?)
    };
    Ok(Document {
        reference: reference.clone(),
        locale,
        default_locale,
        title: row.title,
        content: row.content,
        syntax: row.syntax,
        hidden: row.hidden,
        author: row.author,
        creator: row.creator,
        created: from_ms(row.created_ms),
        updated: from_ms(row.updated_ms),
        version: row.version,
        translations: translations(conn, reference)?,
    })
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
            if outcomes
                .iter()
                .all(|o| matches!(o, SaveOutcome::Unchanged { .. }))
            {
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
                default_locale: stored_locale(&default.language)?,
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
        let (old, new) = self.read(|conn| {
            let row = resolve_row(conn, reference, locale)?
                .ok_or_else(|| StoreError::not_found(Entity::Document, reference))?;
            let load = |version: Version| {
                history::revision(conn, row.id, version)?
                    .ok_or_else(|| StoreError::not_found(Entity::Revision, version))
            };
            Ok((load(from)?, load(to)?))
        })?;
        Ok(history::diff(old, new))
    }
}
