//! Documents: saving rows (compare-and-set, revision, links and search index in one transaction)
//! and reading them with exact-match locale routing.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::Result;
use crate::flow::Transaction;
use crate::flow::documents::{DocumentReads, DocumentRows, Found};
use crate::flow::owner::OwnerRows;
use crate::model::link::LinkTarget;
use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::plan::document::{RowWrite, read_target};
use crate::reference::DocumentReference;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::write::WriteTx;
use crate::stored::{self, DEFAULT_ROW, StoredRow, corrupt, reference_columns, to_i64};

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
    let (wiki, space, name) = reference_columns(reference);
    let sql = format!(
        "SELECT {ROW_COLUMNS} FROM documents WHERE wiki = ?1 AND space = ?2 AND name = ?3 AND locale = ?4"
    );
    conn.prepare_cached(&sql)
        .db()?
        .query_row(params![wiki, space, name, locale], stored_row)
        .optional()
        .db()
}

/// The stored locales of a document's translations, in order.
fn translations(conn: &Connection, reference: &DocumentReference) -> Result<Vec<String>> {
    let (wiki, space, name) = reference_columns(reference);
    conn.prepare_cached(
        "SELECT locale FROM documents WHERE wiki = ?1 AND space = ?2 AND name = ?3 AND locale <> '' ORDER BY locale",
    )
    .db()?
    .query_map(params![wiki, space, name], |row| row.get(0))
    .db()?
    .collect::<rusqlite::Result<_>>()
    .db()
}

impl DocumentReads for &Connection {
    fn wiki_exists(&mut self, wiki: &WikiId) -> Result<bool> {
        Ok(self
            .prepare_cached("SELECT 1 FROM wikis WHERE id = ?1")
            .db()?
            .query_row([wiki.as_str()], |_| Ok(()))
            .optional()
            .db()?
            .is_some())
    }

    fn default_row_id(&mut self, reference: &DocumentReference) -> Result<Option<i64>> {
        let (wiki, space, name) = reference_columns(reference);
        self.prepare_cached(
            "SELECT id FROM documents WHERE wiki = ?1 AND space = ?2 AND name = ?3 AND locale = ''",
        )
        .db()?
        .query_row(params![wiki, space, name], |row| row.get(0))
        .optional()
        .db()
    }

    /// The default row, the addressed translation (when it is one) and the translations' locales,
    /// in three statements.
    fn find(
        &mut self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<Found>> {
        let Some(row) = self.resolve_row(reference, locale)? else {
            return Ok(None);
        };
        let default_language = if row.locale == DEFAULT_ROW {
            row.language.clone()
        } else {
            load_row(self, reference, DEFAULT_ROW)?
                .ok_or_else(|| corrupt("translation without default row"))?
                .language
        };
        Ok(Some(Found {
            row,
            default_language,
            translations: translations(self, reference)?,
        }))
    }

    /// The default row, then the translation row when the request addresses one.
    fn resolve_row(
        &mut self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<StoredRow>> {
        let Some(default) = load_row(self, reference, DEFAULT_ROW)? else {
            return Ok(None);
        };
        match read_target(locale, &default.language) {
            Some(translation) => load_row(self, reference, translation.as_str()),
            None => Ok(Some(default)),
        }
    }
}

impl DocumentRows for WriteTx<'_> {
    fn lock_row(
        &mut self,
        reference: &DocumentReference,
        locale: &str,
    ) -> Result<Option<StoredRow>> {
        // The IMMEDIATE transaction already excludes every other writer.
        load_row(self, reference, locale)
    }

    fn write_row(&mut self, write: &RowWrite<'_>, id: Option<i64>) -> Result<i64> {
        let now = self.now_ms();
        let version = write.version;
        let id = match id {
            Some(id) => {
                self.prepare_cached(
                    "UPDATE documents SET title = ?2, content = ?3, syntax = ?4, hidden = ?5, author = ?6, \
                     updated_ms = ?7, version_major = ?8, version_minor = ?9 WHERE id = ?1",
                )
                .db()?
                .execute(params![id, write.title, write.content, write.syntax, write.hidden, write.author, now, version.major, version.minor])
                .db()?;
                id
            }
            None => {
                let (wiki, space, name) = reference_columns(write.reference);
                self.prepare_cached(
                    "INSERT INTO documents (wiki, space, name, locale, language, title, content, syntax, hidden, \
                     creator, author, created_ms, updated_ms, version_major, version_minor) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11, ?11, ?12, ?13) RETURNING id",
                )
                .db()?
                .query_row(
                    params![
                        wiki,
                        space,
                        name,
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
        self.prepare_cached(
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
        Ok(id)
    }

    fn replace_links(&mut self, source_id: i64, links: &[LinkTarget]) -> Result<()> {
        self.prepare_cached("DELETE FROM links WHERE source_id = ?1")
            .db()?
            .execute([source_id])
            .db()?;
        let mut insert = self
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
            let (wiki, space, name) = reference_columns(target);
            insert
                .execute(params![
                    source_id,
                    to_i64(position),
                    wiki,
                    space,
                    name,
                    attachment
                ])
                .db()?;
        }
        Ok(())
    }
}

/// The IMMEDIATE transaction already excludes every other writer: the owner's row is read.
impl OwnerRows for WriteTx<'_> {}
