//! The statements behind [`crate::TrashStore`]: moving documents and attachments
//! into the `trash_*` tables and back, each move one transaction.

use std::collections::HashMap;

use postgres::Row;

use crate::Result;
use crate::flow::trash::{TrashReads, TrashRows};
use crate::model::trash::{TrashEntry, TrashId, TrashQuery};
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::postgres::convert::RowExt;
use crate::postgres::documents::{version, version_columns};
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::reference::DocumentReference;
use crate::stored::reference_columns;
use crate::stored::{self, DEFAULT_ROW, corrupt, from_ms};

const ENTRY_COLUMNS: &str = "id, wiki, space, name, attachment, version_major, version_minor, deleted_by, comment, deleted_ms";
const DOCUMENT_COLUMNS: &str = "locale, language, title, content, syntax, hidden, creator, author, created_ms, \
                                updated_ms, version_major, version_minor";
const REVISION_COLUMNS: &str =
    "major, minor, title, content, syntax, hidden, author, comment, saved_ms, structure";
const LINK_COLUMNS: &str = "position, target_wiki, target_space, target_name, attachment";
const VERSION_COLUMNS: &str = "version_major, version_minor, size, declared_mime, sniffed_mime, author, comment, created_ms, content";
const FIELD_COLUMNS: &str = "name, position, field_type, pretty_name, attributes, disabled";
const VALUE_COLUMNS: &str = "field, text_value, int_value, real_value, number";

impl TrashReads for Conn {
    fn trash_entries(&mut self, wiki: &WikiId) -> Result<Vec<TrashEntry>> {
        self.query(
            &format!(
                "SELECT {ENTRY_COLUMNS} FROM trash_entries WHERE wiki = $1 ORDER BY deleted_ms DESC, id DESC"
            ),
            &[&wiki.as_str()],
        )?
        .iter()
        .map(entry_row)
        .collect()
    }

    fn trash_page(&mut self, query: &TrashQuery) -> Result<Vec<TrashEntry>> {
        let (space, name) = match &query.document {
            Some(document) => (Some(document.space().to_string()), Some(document.name())),
            None => (None, None),
        };
        let before = query.before.map(|id| id.0);
        let limit = stored::to_i64(query.limit);
        self.query(
            &format!(
                "SELECT {ENTRY_COLUMNS} FROM trash_entries WHERE wiki = $1 \
                 AND ($2::text IS NULL OR (space = $2 AND name = $3)) \
                 AND ($4::bigint IS NULL OR id < $4) ORDER BY id DESC LIMIT $5"
            ),
            &[&query.wiki.as_str(), &space, &name, &before, &limit],
        )?
        .iter()
        .map(entry_row)
        .collect()
    }
}

impl TrashRows for WriteTx<'_> {
    fn insert_entry_row(
        &mut self,
        reference: &DocumentReference,
        attachment: Option<&str>,
        version: Version,
        author: &str,
        comment: &str,
        deleted_ms: i64,
    ) -> Result<i64> {
        let (wiki, space, name) = reference_columns(reference);
        let (major, minor) = version_columns(version);
        self.query_one(
            "INSERT INTO trash_entries (wiki, space, name, attachment, version_major, version_minor, deleted_by, \
             comment, deleted_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
            &[&wiki, &space, &name, &attachment, &major, &minor, &author, &comment, &deleted_ms],
        )?
        .col(0)
    }

    /// Copies every row of a document and everything hanging on it into the bin, then deletes the
    /// rows (the cascade removes revisions, links, attachments, fields and objects, and the search
    /// vectors go with their rows). The caller holds the default row's lock; translation rows are
    /// locked here, before they are copied.
    fn move_document_out(
        &mut self,
        entry: TrashId,
        reference: &DocumentReference,
        default_id: i64,
    ) -> Result<()> {
        let (wiki, space, name) = reference_columns(reference);
        self.execute(
            "SELECT 1 FROM documents WHERE wiki = $1 AND space = $2 AND name = $3 FOR UPDATE",
            &[&wiki, &space, &name],
        )?;
        let rows = "SELECT id FROM documents WHERE wiki = $2 AND space = $3 AND name = $4";
        let statements = [
            format!(
                "INSERT INTO trash_documents (entry_id, old_id, {DOCUMENT_COLUMNS}) \
                 SELECT $1, id, {DOCUMENT_COLUMNS} FROM documents WHERE wiki = $2 AND space = $3 AND name = $4"
            ),
            format!(
                "INSERT INTO trash_revisions (entry_id, old_document_id, {REVISION_COLUMNS}) \
                 SELECT $1, document_id, {REVISION_COLUMNS} FROM revisions WHERE document_id IN ({rows})"
            ),
            format!(
                "INSERT INTO trash_links (entry_id, old_document_id, {LINK_COLUMNS}) \
                 SELECT $1, source_id, {LINK_COLUMNS} FROM links WHERE source_id IN ({rows})"
            ),
        ];
        for sql in &statements {
            self.execute(sql, &[&entry.0, &wiki, &space, &name])?;
        }
        let owned = [
            "INSERT INTO trash_attachments (entry_id, old_id, name) SELECT $1, id, name FROM attachments WHERE document_id = $2"
                .to_owned(),
            format!(
                "INSERT INTO trash_attachment_versions (entry_id, old_attachment_id, {VERSION_COLUMNS}) \
                 SELECT $1, attachment_id, {VERSION_COLUMNS} FROM attachment_versions \
                 WHERE attachment_id IN (SELECT id FROM attachments WHERE document_id = $2)"
            ),
            format!(
                "INSERT INTO trash_class_fields (entry_id, {FIELD_COLUMNS}) \
                 SELECT $1, {FIELD_COLUMNS} FROM class_fields WHERE document_id = $2"
            ),
            "INSERT INTO trash_objects (entry_id, old_id, class, number) SELECT $1, id, class, number FROM objects \
             WHERE document_id = $2"
                .to_owned(),
            format!(
                "INSERT INTO trash_object_values (entry_id, old_object_id, {VALUE_COLUMNS}) \
                 SELECT $1, object_id, {VALUE_COLUMNS} FROM object_values \
                 WHERE object_id IN (SELECT id FROM objects WHERE document_id = $2)"
            ),
        ];
        for sql in &owned {
            self.execute(sql, &[&entry.0, &default_id])?;
        }
        self.execute(
            "DELETE FROM documents WHERE wiki = $1 AND space = $2 AND name = $3",
            &[&wiki, &space, &name],
        )?;
        Ok(())
    }

    fn lock_entry(&mut self, id: TrashId) -> Result<Option<TrashEntry>> {
        self.query_opt(
            &format!("SELECT {ENTRY_COLUMNS} FROM trash_entries WHERE id = $1 FOR UPDATE"),
            &[&id.0],
        )?
        .map(|row| entry_row(&row))
        .transpose()
    }

    fn document_exists(&mut self, reference: &DocumentReference) -> Result<bool> {
        let (wiki, space, name) = reference_columns(reference);
        Ok(self
            .query_opt(
                "SELECT 1 FROM documents WHERE wiki = $1 AND space = $2 AND name = $3 LIMIT 1",
                &[&wiki, &space, &name],
            )?
            .is_some())
    }

    /// Moves a bin entry's document back under new row ids (the caller checked it is absent).
    fn move_document_in(&mut self, entry: &TrashEntry) -> Result<Option<Version>> {
        let reference = &entry.reference;
        let (wiki, space, name) = reference_columns(reference);
        let old_rows: Vec<(i64, String)> = self
            .query(
                "SELECT old_id, locale FROM trash_documents WHERE entry_id = $1 ORDER BY locale",
                &[&entry.id.0],
            )?
            .iter()
            .map(|row| Ok((row.col(0)?, row.col(1)?)))
            .collect::<Result<_>>()?;
        let mut new_ids = HashMap::new();
        for (old_id, _) in &old_rows {
            let new_id: i64 = self
                .query_one(
                    &format!(
                        "INSERT INTO documents (wiki, space, name, {DOCUMENT_COLUMNS}) \
                         SELECT $2, $3, $4, {DOCUMENT_COLUMNS} FROM trash_documents WHERE entry_id = $1 AND old_id = $5 \
                         RETURNING id"
                    ),
                    &[&entry.id.0, &wiki, &space, &name, old_id],
                )?
                .col(0)?;
            new_ids.insert(*old_id, new_id);
            for sql in [
                format!(
                    "INSERT INTO revisions (document_id, {REVISION_COLUMNS}) SELECT $3, {REVISION_COLUMNS} \
                     FROM trash_revisions WHERE entry_id = $1 AND old_document_id = $2"
                ),
                format!(
                    "INSERT INTO links (source_id, {LINK_COLUMNS}) SELECT $3, {LINK_COLUMNS} \
                     FROM trash_links WHERE entry_id = $1 AND old_document_id = $2"
                ),
            ] {
                self.execute(&sql, &[&entry.id.0, old_id, &new_id])?;
            }
        }
        let default_id = old_rows
            .iter()
            .find(|(_, locale)| locale == DEFAULT_ROW)
            .and_then(|(old_id, _)| new_ids.get(old_id).copied())
            .ok_or_else(|| corrupt("recycle bin entry without its default row"))?;
        self.move_attachments_in(entry.id, default_id)?;
        self.execute(
            &format!(
                "INSERT INTO class_fields (document_id, {FIELD_COLUMNS}) SELECT $2, {FIELD_COLUMNS} \
                 FROM trash_class_fields WHERE entry_id = $1"
            ),
            &[&entry.id.0, &default_id],
        )?;
        let objects: Vec<(i64, String, i64)> = self
            .query(
                "SELECT old_id, class, number FROM trash_objects WHERE entry_id = $1",
                &[&entry.id.0],
            )?
            .iter()
            .map(|row| Ok((row.col(0)?, row.col(1)?, row.col(2)?)))
            .collect::<Result<_>>()?;
        for (old_id, class, number) in objects {
            let new_id: i64 = self
                .query_one(
                    "INSERT INTO objects (document_id, class, number) VALUES ($1, $2, $3) RETURNING id",
                    &[&default_id, &class, &number],
                )?
                .col(0)?;
            self.execute(
                &format!(
                    "INSERT INTO object_values (object_id, {VALUE_COLUMNS}) SELECT $3, {VALUE_COLUMNS} \
                     FROM trash_object_values WHERE entry_id = $1 AND old_object_id = $2"
                ),
                &[&entry.id.0, &old_id, &new_id],
            )?;
        }
        self.query_opt(
            "SELECT version_major, version_minor FROM documents WHERE id = $1",
            &[&default_id],
        )?
        .map(|row| version(&row, 0))
        .transpose()
    }

    /// Moves a bin entry's attachments (with their versions) onto `document_id`.
    fn move_attachments_in(&mut self, entry: TrashId, document_id: i64) -> Result<()> {
        let attachments: Vec<(i64, String)> = self
            .query(
                "SELECT old_id, name FROM trash_attachments WHERE entry_id = $1",
                &[&entry.0],
            )?
            .iter()
            .map(|row| Ok((row.col(0)?, row.col(1)?)))
            .collect::<Result<_>>()?;
        for (old_id, name) in attachments {
            let new_id: i64 = self
                .query_one(
                    "INSERT INTO attachments (document_id, name) VALUES ($1, $2) RETURNING id",
                    &[&document_id, &name],
                )?
                .col(0)?;
            self.execute(
                &format!(
                    "INSERT INTO attachment_versions (attachment_id, {VERSION_COLUMNS}) SELECT $3, {VERSION_COLUMNS} \
                     FROM trash_attachment_versions WHERE entry_id = $1 AND old_attachment_id = $2"
                ),
                &[&entry.0, &old_id, &new_id],
            )?;
        }
        Ok(())
    }

    fn delete_entry(&mut self, id: TrashId) -> Result<()> {
        self.execute("DELETE FROM trash_entries WHERE id = $1", &[&id.0])?;
        Ok(())
    }

    fn attachment_name(&mut self, attachment_id: i64) -> Result<String> {
        self.query_one(
            "SELECT name FROM attachments WHERE id = $1",
            &[&attachment_id],
        )?
        .col(0)
    }

    fn move_attachment_out(&mut self, entry: TrashId, attachment_id: i64) -> Result<()> {
        self.execute(
            "INSERT INTO trash_attachments (entry_id, old_id, name) SELECT $1, id, name FROM attachments WHERE id = $2",
            &[&entry.0, &attachment_id],
        )?;
        self.execute(
            &format!(
                "INSERT INTO trash_attachment_versions (entry_id, old_attachment_id, {VERSION_COLUMNS}) \
                 SELECT $1, attachment_id, {VERSION_COLUMNS} FROM attachment_versions WHERE attachment_id = $2"
            ),
            &[&entry.0, &attachment_id],
        )?;
        self.execute("DELETE FROM attachments WHERE id = $1", &[&attachment_id])?;
        Ok(())
    }
}

fn entry_row(row: &Row) -> Result<TrashEntry> {
    Ok(TrashEntry {
        id: TrashId(row.col(0)?),
        reference: stored::reference(row.col(1)?, row.col(2)?, row.col(3)?)?,
        attachment: row.col(4)?,
        version: version(row, 5)?,
        deleted_by: row.col(7)?,
        comment: row.col(8)?,
        deleted: from_ms(row.col(9)?),
    })
}
