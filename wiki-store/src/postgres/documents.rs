//! Documents: saving rows (default row locked, compare-and-set, revision, links and search
//! vector in one transaction) and reading them with exact-match locale routing, in one statement
//! per read where the SQLite backend needs several.

use postgres::Row;

use crate::Result;
use crate::flow::Transaction;
use crate::flow::documents::{DocumentReads, DocumentRows, Found};
use crate::flow::owner::OwnerRows;
use crate::model::link::LinkTarget;
use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::plan::document::{RowWrite, read_target};
use crate::postgres::convert::{RowExt, unsigned};
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::reference::DocumentReference;
use crate::stored::{self, DEFAULT_ROW, StoredRow, reference_columns, to_i64};

/// The columns [`stored_row`] decodes, in order.
pub(crate) const ROW_COLUMNS: &str = "id, locale, language, title, content, syntax, hidden, creator, author, \
                                      created_ms, updated_ms, version_major, version_minor";

/// A row of [`ROW_COLUMNS`] (from column 0).
pub(crate) fn stored_row(row: &Row) -> Result<StoredRow> {
    Ok(StoredRow {
        id: row.col(0)?,
        locale: row.col(1)?,
        language: row.col(2)?,
        title: row.col(3)?,
        content: row.col(4)?,
        syntax: row.col(5)?,
        hidden: row.col(6)?,
        creator: row.col(7)?,
        author: row.col(8)?,
        created_ms: row.col(9)?,
        updated_ms: row.col(10)?,
        version: version(row, 11)?,
    })
}

/// A version stored as two `bigint` columns, `major` at `index` and `minor` after it.
pub(crate) fn version(row: &Row, index: usize) -> Result<Version> {
    Ok(Version {
        major: unsigned(row.col::<i64>(index)?, "version")?,
        minor: unsigned(row.col::<i64>(index + 1)?, "version")?,
    })
}

/// A version's two columns, as bound values.
pub(crate) fn version_columns(version: Version) -> (i64, i64) {
    (i64::from(version.major), i64::from(version.minor))
}

impl DocumentRows for WriteTx<'_> {
    /// One row by reference and stored locale (`""` for the default row), locked `FOR UPDATE` until
    /// the transaction ends: a write reads every row it plans on this way, so writers of one
    /// document queue behind each other and each sees the previous one's commit.
    fn lock_row(
        &mut self,
        reference: &DocumentReference,
        locale: &str,
    ) -> Result<Option<StoredRow>> {
        let (wiki, space, name) = reference_columns(reference);
        self.query_opt(
            &format!(
                "SELECT {ROW_COLUMNS} FROM documents WHERE wiki = $1 AND space = $2 AND name = $3 AND locale = $4 \
                 FOR UPDATE"
            ),
            &[&wiki, &space, &name, &locale],
        )?
        .map(|row| stored_row(&row))
        .transpose()
    }

    /// The row and its revision in one statement.
    fn write_row(&mut self, write: &RowWrite<'_>, id: Option<i64>) -> Result<i64> {
        let now = self.now_ms();
        let (major, minor) = version_columns(write.version);
        let row = match id {
            Some(id) => self.query_one(
                "WITH row AS (UPDATE documents SET title = $2, content = $3, syntax = $4, hidden = $5, author = $6, \
                 updated_ms = $7, version_major = $8, version_minor = $9 WHERE id = $1 RETURNING id) \
                 INSERT INTO revisions (document_id, major, minor, title, content, syntax, hidden, author, comment, saved_ms) \
                 SELECT row.id, $8, $9, $2, $3, $4, $5, $6, $10, $7 FROM row RETURNING document_id",
                &[&id, &write.title, &write.content, &write.syntax, &write.hidden, &write.author, &now, &major, &minor, &write.comment],
            )?,
            None => {
                let (wiki, space, name) = reference_columns(write.reference);
                let locale = stored::row_key(write.translation);
                self.query_one(
                    "WITH row AS (INSERT INTO documents (wiki, space, name, locale, language, title, content, syntax, \
                     hidden, creator, author, created_ms, updated_ms, version_major, version_minor) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $11, $12, $13) RETURNING id) \
                     INSERT INTO revisions (document_id, major, minor, title, content, syntax, hidden, author, comment, saved_ms) \
                     SELECT row.id, $12, $13, $6, $7, $8, $9, $10, $14, $11 FROM row RETURNING document_id",
                    &[&wiki, &space, &name, &locale, &write.language, &write.title, &write.content, &write.syntax,
                      &write.hidden, &write.author, &now, &major, &minor, &write.comment],
                )?
            }
        };
        row.col(0)
    }

    /// Makes a row's links `links`, in one statement: positions past the new list go, the others
    /// are inserted or overwritten, and a link that stays as it was is not written again (most
    /// saves keep most links).
    fn replace_links(&mut self, source_id: i64, links: &[LinkTarget]) -> Result<()> {
        let mut wikis = Vec::with_capacity(links.len());
        let mut spaces = Vec::with_capacity(links.len());
        let mut names = Vec::with_capacity(links.len());
        let mut attachments: Vec<Option<&str>> = Vec::with_capacity(links.len());
        for link in links {
            let (target, attachment) = match link {
                LinkTarget::Document(target) => (target, None),
                LinkTarget::Attachment { document, name } => (document, Some(name.as_str())),
            };
            wikis.push(target.wiki().as_str());
            spaces.push(target.space().to_string());
            names.push(target.name());
            attachments.push(attachment);
        }
        let count = to_i64(links.len());
        self.execute(
            "WITH gone AS (DELETE FROM links WHERE source_id = $1 AND position >= $2) \
             INSERT INTO links (source_id, position, target_wiki, target_space, target_name, attachment) \
             SELECT $1, l.position - 1, l.wiki, l.space, l.name, l.attachment \
             FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY \
                  AS l(wiki, space, name, attachment, position) \
             ON CONFLICT (source_id, position) DO UPDATE SET target_wiki = excluded.target_wiki, \
             target_space = excluded.target_space, target_name = excluded.target_name, \
             attachment = excluded.attachment \
             WHERE (links.target_wiki, links.target_space, links.target_name, links.attachment) \
             IS DISTINCT FROM (excluded.target_wiki, excluded.target_space, excluded.target_name, excluded.attachment)",
            &[&source_id, &count, &wikis, &spaces, &names, &attachments],
        )?;
        Ok(())
    }
}

impl OwnerRows for WriteTx<'_> {
    fn lock_owner(&mut self, reference: &DocumentReference) -> Result<Option<i64>> {
        Ok(self.lock_row(reference, DEFAULT_ROW)?.map(|row| row.id))
    }
}

impl DocumentReads for Conn {
    fn wiki_exists(&mut self, wiki: &WikiId) -> Result<bool> {
        Ok(self
            .query_opt("SELECT 1 FROM wikis WHERE id = $1", &[&wiki.as_str()])?
            .is_some())
    }

    fn default_row_id(&mut self, reference: &DocumentReference) -> Result<Option<i64>> {
        let (wiki, space, name) = reference_columns(reference);
        self.query_opt(
            "SELECT id FROM documents WHERE wiki = $1 AND space = $2 AND name = $3 AND locale = ''",
            &[&wiki, &space, &name],
        )?
        .map(|row| row.col(0))
        .transpose()
    }

    /// Resolves an exact-match locale request: the default row for `None` or the default language,
    /// else that translation row; `None` when the document or translation is missing. One
    /// statement and one index scan read every row of the document, in locale order (the default
    /// row, `''`, first): the translations are their locales, and only the default row and the
    /// requested one carry their content (the others' is never read, so never detoasted). Two
    /// scans (the rows, then the locales in a sub-select) cost about 10% more per read in pgbench.
    fn find(
        &mut self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<Found>> {
        let (wiki, space, name) = reference_columns(reference);
        let requested = stored::row_key(locale);
        let rows = self.query(
            "SELECT id, locale, language, title, CASE WHEN locale IN ('', $4) THEN content ELSE '' END, \
             syntax, hidden, creator, author, created_ms, updated_ms, version_major, version_minor \
             FROM documents WHERE wiki = $1 AND space = $2 AND name = $3 ORDER BY locale",
            &[&wiki, &space, &name, &requested],
        )?;
        let Some((first, others)) = rows.split_first() else {
            return Ok(None);
        };
        let default = stored_row(first)?;
        if default.locale != DEFAULT_ROW {
            // A translation without its default row is not a document.
            return Ok(None);
        }
        let translations = others
            .iter()
            .map(|row| row.col::<String>(1))
            .collect::<Result<Vec<_>>>()?;
        let default_language = default.language.clone();
        let row = match read_target(locale, &default.language) {
            None => default,
            Some(translation) => {
                let position = translations
                    .iter()
                    .position(|stored| stored == translation.as_str());
                match position.and_then(|at| others.get(at)) {
                    Some(row) => stored_row(row)?,
                    None => return Ok(None),
                }
            }
        };
        Ok(Some(Found {
            row,
            default_language,
            translations,
        }))
    }
}
