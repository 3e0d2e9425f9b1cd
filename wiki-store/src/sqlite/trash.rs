//! The statements behind [`crate::TrashStore`]: moving documents and attachments into
//! the `trash_*` tables and back, each move one transaction.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::Result;
use crate::flow::trash::{TrashReads, TrashRows};
use crate::model::trash::{TrashEntry, TrashId, TrashQuery};
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::reference::DocumentReference;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::documents::load_row;
use crate::sqlite::write::WriteTx;
use crate::stored::{self, DEFAULT_ROW, corrupt, from_ms, reference_columns};

impl TrashReads for &Connection {
    fn trash_entries(&mut self, wiki: &WikiId) -> Result<Vec<TrashEntry>> {
        let sql = format!(
            "SELECT {ENTRY_COLUMNS} FROM trash_entries WHERE wiki = ?1 ORDER BY deleted_ms DESC, id DESC"
        );
        self.prepare_cached(&sql)
            .db()?
            .query_map([wiki.as_str()], raw_entry)
            .db()?
            .map(|raw| raw.db().and_then(RawEntry::decode))
            .collect()
    }

    fn trash_page(&mut self, query: &TrashQuery) -> Result<Vec<TrashEntry>> {
        let (space, name) = match &query.document {
            Some(document) => (Some(document.space().to_string()), Some(document.name())),
            None => (None, None),
        };
        let sql = format!(
            "SELECT {ENTRY_COLUMNS} FROM trash_entries WHERE wiki = ?1 \
             AND (?2 IS NULL OR (space = ?2 AND name = ?3)) AND (?4 IS NULL OR id < ?4) \
             ORDER BY id DESC LIMIT ?5"
        );
        let before = query.before.map(|id| id.0);
        let limit = stored::to_i64(query.limit);
        self.prepare_cached(&sql)
            .db()?
            .query_map(
                params![query.wiki.as_str(), space, name, before, limit],
                raw_entry,
            )
            .db()?
            .map(|raw| raw.db().and_then(RawEntry::decode))
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
        self.prepare_cached(
            "INSERT INTO trash_entries (wiki, space, name, attachment, version_major, version_minor, deleted_by, \
             comment, deleted_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id",
        )
        .db()?
        .query_row(
            params![
                wiki, space, name,
                attachment,
                version.major,
                version.minor,
                author,
                comment,
                deleted_ms
            ],
            |row| row.get(0),
        )
        .db()
    }

    /// Copies every row of a document and everything hanging on it into the bin, then deletes the
    /// rows (the cascade removes revisions, links, attachments, fields and objects; the FTS triggers
    /// remove the index entries).
    fn move_document_out(
        &mut self,
        entry: TrashId,
        reference: &DocumentReference,
        default_id: i64,
    ) -> Result<()> {
        let (wiki, space, name) = reference_columns(reference);
        let key = params![entry.0, wiki, space, name];
        let rows = "SELECT id FROM documents WHERE wiki = ?2 AND space = ?3 AND name = ?4";
        let statements = [
            format!(
                "INSERT INTO trash_documents (entry_id, old_id, {DOCUMENT_COLUMNS}) \
                 SELECT ?1, id, {DOCUMENT_COLUMNS} FROM documents WHERE wiki = ?2 AND space = ?3 AND name = ?4"
            ),
            format!(
                "INSERT INTO trash_revisions (entry_id, old_document_id, {REVISION_COLUMNS}) \
                 SELECT ?1, document_id, {REVISION_COLUMNS} FROM revisions WHERE document_id IN ({rows})"
            ),
            format!(
                "INSERT INTO trash_links (entry_id, old_document_id, {LINK_COLUMNS}) \
                 SELECT ?1, source_id, {LINK_COLUMNS} FROM links WHERE source_id IN ({rows})"
            ),
        ];
        for sql in &statements {
            self.prepare_cached(sql).db()?.execute(key).db()?;
        }
        let owned = [
            "INSERT INTO trash_attachments (entry_id, old_id, name) SELECT ?1, id, name FROM attachments WHERE document_id = ?2"
                .to_owned(),
            format!(
                "INSERT INTO trash_attachment_versions (entry_id, old_attachment_id, {VERSION_COLUMNS}) \
                 SELECT ?1, attachment_id, {VERSION_COLUMNS} FROM attachment_versions \
                 WHERE attachment_id IN (SELECT id FROM attachments WHERE document_id = ?2)"
            ),
            format!(
                "INSERT INTO trash_class_fields (entry_id, {FIELD_COLUMNS}) \
                 SELECT ?1, {FIELD_COLUMNS} FROM class_fields WHERE document_id = ?2"
            ),
            "INSERT INTO trash_objects (entry_id, old_id, class, number) SELECT ?1, id, class, number FROM objects \
             WHERE document_id = ?2"
                .to_owned(),
            "INSERT INTO trash_object_values (entry_id, old_object_id, field, value) SELECT ?1, object_id, field, value \
             FROM object_values WHERE object_id IN (SELECT id FROM objects WHERE document_id = ?2)"
                .to_owned(),
        ];
        for sql in &owned {
            self.prepare_cached(sql)
                .db()?
                .execute(params![entry.0, default_id])
                .db()?;
        }
        self.prepare_cached("DELETE FROM documents WHERE wiki = ?1 AND space = ?2 AND name = ?3")
            .db()?
            .execute(params![wiki, space, name])
            .db()?;
        Ok(())
    }

    fn lock_entry(&mut self, id: TrashId) -> Result<Option<TrashEntry>> {
        // The IMMEDIATE transaction already excludes a concurrent restore.
        let sql = format!("SELECT {ENTRY_COLUMNS} FROM trash_entries WHERE id = ?1");
        self.prepare_cached(&sql)
            .db()?
            .query_row([id.0], raw_entry)
            .optional()
            .db()?
            .map(RawEntry::decode)
            .transpose()
    }

    fn document_exists(&mut self, reference: &DocumentReference) -> Result<bool> {
        let (wiki, space, name) = reference_columns(reference);
        Ok(self
            .prepare_cached(
                "SELECT 1 FROM documents WHERE wiki = ?1 AND space = ?2 AND name = ?3 LIMIT 1",
            )
            .db()?
            .query_row(params![wiki, space, name], |_| Ok(()))
            .optional()
            .db()?
            .is_some())
    }

    /// Moves a bin entry's document back under new row ids (the caller checked it is absent).
    fn move_document_in(&mut self, entry: &TrashEntry) -> Result<Option<Version>> {
        let reference = &entry.reference;
        let (wiki, space, name) = reference_columns(reference);
        let old_rows: Vec<(i64, String)> = self
            .prepare_cached(
                "SELECT old_id, locale FROM trash_documents WHERE entry_id = ?1 ORDER BY locale",
            )
            .db()?
            .query_map([entry.id.0], |row| Ok((row.get(0)?, row.get(1)?)))
            .db()?
            .collect::<rusqlite::Result<_>>()
            .db()?;
        let mut new_ids = HashMap::new();
        for (old_id, _) in &old_rows {
            let new_id: i64 = self
                .prepare_cached(&format!(
                    "INSERT INTO documents (wiki, space, name, {DOCUMENT_COLUMNS}) \
                     SELECT ?2, ?3, ?4, {DOCUMENT_COLUMNS} FROM trash_documents WHERE entry_id = ?1 AND old_id = ?5 \
                     RETURNING id"
                ))
                .db()?
                .query_row(
                    params![entry.id.0, wiki, space, name, old_id],
                    |row| row.get(0),
                )
                .db()?;
            new_ids.insert(*old_id, new_id);
            for sql in [
                format!(
                    "INSERT INTO revisions (document_id, {REVISION_COLUMNS}) SELECT ?3, {REVISION_COLUMNS} \
                     FROM trash_revisions WHERE entry_id = ?1 AND old_document_id = ?2"
                ),
                format!(
                    "INSERT INTO links (source_id, {LINK_COLUMNS}) SELECT ?3, {LINK_COLUMNS} \
                     FROM trash_links WHERE entry_id = ?1 AND old_document_id = ?2"
                ),
            ] {
                self.prepare_cached(&sql)
                    .db()?
                    .execute(params![entry.id.0, old_id, new_id])
                    .db()?;
            }
        }
        let default_id = old_rows
            .iter()
            .find(|(_, locale)| locale == DEFAULT_ROW)
            .and_then(|(old_id, _)| new_ids.get(old_id).copied())
            .ok_or_else(|| corrupt("recycle bin entry without its default row"))?;
        self.move_attachments_in(entry.id, default_id)?;
        self.prepare_cached(&format!(
            "INSERT INTO class_fields (document_id, {FIELD_COLUMNS}) SELECT ?2, {FIELD_COLUMNS} \
             FROM trash_class_fields WHERE entry_id = ?1"
        ))
        .db()?
        .execute(params![entry.id.0, default_id])
        .db()?;
        let objects: Vec<(i64, String, i64)> = self
            .prepare_cached("SELECT old_id, class, number FROM trash_objects WHERE entry_id = ?1")
            .db()?
            .query_map([entry.id.0], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?))
            })
            .db()?
            .collect::<rusqlite::Result<_>>()
            .db()?;
        for (old_id, class, number) in objects {
            let new_id: i64 = self
                .prepare_cached(
                    "INSERT INTO objects (document_id, class, number) VALUES (?1, ?2, ?3) RETURNING id",
                )
                .db()?
                .query_row(params![default_id, class, number], |row| row.get(0))
                .db()?;
            self.prepare_cached(
                "INSERT INTO object_values (object_id, field, value) SELECT ?3, field, value FROM trash_object_values \
                 WHERE entry_id = ?1 AND old_object_id = ?2",
            )
            .db()?
            .execute(params![entry.id.0, old_id, new_id])
            .db()?;
        }
        Ok(load_row(self, reference, DEFAULT_ROW)?.map(|row| row.version))
    }

    /// Moves a bin entry's attachments (with their versions) onto `document_id`.
    fn move_attachments_in(&mut self, entry: TrashId, document_id: i64) -> Result<()> {
        let attachments: Vec<(i64, String)> = self
            .prepare_cached("SELECT old_id, name FROM trash_attachments WHERE entry_id = ?1")
            .db()?
            .query_map([entry.0], |row| Ok((row.get(0)?, row.get(1)?)))
            .db()?
            .collect::<rusqlite::Result<_>>()
            .db()?;
        for (old_id, name) in attachments {
            let new_id: i64 = self
                .prepare_cached(
                    "INSERT INTO attachments (document_id, name) VALUES (?1, ?2) RETURNING id",
                )
                .db()?
                .query_row(params![document_id, name], |row| row.get(0))
                .db()?;
            self.prepare_cached(&format!(
                "INSERT INTO attachment_versions (attachment_id, {VERSION_COLUMNS}) SELECT ?3, {VERSION_COLUMNS} \
                 FROM trash_attachment_versions WHERE entry_id = ?1 AND old_attachment_id = ?2"
            ))
            .db()?
            .execute(params![entry.0, old_id, new_id])
            .db()?;
        }
        Ok(())
    }

    fn delete_entry(&mut self, id: TrashId) -> Result<()> {
        self.prepare_cached("DELETE FROM trash_entries WHERE id = ?1")
            .db()?
            .execute([id.0])
            .db()?;
        Ok(())
    }

    fn attachment_name(&mut self, attachment_id: i64) -> Result<String> {
        self.prepare_cached("SELECT name FROM attachments WHERE id = ?1")
            .db()?
            .query_row([attachment_id], |row| row.get(0))
            .db()
    }

    fn move_attachment_out(&mut self, entry: TrashId, attachment_id: i64) -> Result<()> {
        self.prepare_cached("INSERT INTO trash_attachments (entry_id, old_id, name) SELECT ?1, id, name FROM attachments WHERE id = ?2")
            .db()?
            .execute(params![entry.0, attachment_id])
            .db()?;
        self.prepare_cached(&format!(
            "INSERT INTO trash_attachment_versions (entry_id, old_attachment_id, {VERSION_COLUMNS}) \
             SELECT ?1, attachment_id, {VERSION_COLUMNS} FROM attachment_versions WHERE attachment_id = ?2"
        ))
        .db()?
        .execute(params![entry.0, attachment_id])
        .db()?;
        self.prepare_cached("DELETE FROM attachments WHERE id = ?1")
            .db()?
            .execute([attachment_id])
            .db()?;
        Ok(())
    }
}

const ENTRY_COLUMNS: &str = "id, wiki, space, name, attachment, version_major, version_minor, deleted_by, comment, deleted_ms";
const DOCUMENT_COLUMNS: &str = "locale, language, title, content, syntax, hidden, creator, author, created_ms, \
                                updated_ms, version_major, version_minor";
const REVISION_COLUMNS: &str =
    "major, minor, title, content, syntax, hidden, author, comment, saved_ms, structure";
const LINK_COLUMNS: &str = "position, target_wiki, target_space, target_name, attachment";
const VERSION_COLUMNS: &str = "version_major, version_minor, size, declared_mime, sniffed_mime, author, comment, created_ms, content";
const FIELD_COLUMNS: &str = "name, position, field_type, pretty_name, attributes, disabled";

struct RawEntry {
    id: i64,
    wiki: String,
    space: String,
    name: String,
    attachment: Option<String>,
    version: Version,
    deleted_by: String,
    comment: String,
    deleted_ms: i64,
}

fn raw_entry(row: &Row<'_>) -> rusqlite::Result<RawEntry> {
    Ok(RawEntry {
        id: row.get(0)?,
        wiki: row.get(1)?,
        space: row.get(2)?,
        name: row.get(3)?,
        attachment: row.get(4)?,
        version: Version {
            major: row.get(5)?,
            minor: row.get(6)?,
        },
        deleted_by: row.get(7)?,
        comment: row.get(8)?,
        deleted_ms: row.get(9)?,
    })
}

impl RawEntry {
    fn decode(self) -> Result<TrashEntry> {
        Ok(TrashEntry {
            id: TrashId(self.id),
            reference: stored::reference(&self.wiki, &self.space, self.name)?,
            attachment: self.attachment,
            version: self.version,
            deleted_by: self.deleted_by,
            comment: self.comment,
            deleted: from_ms(self.deleted_ms),
        })
    }
}
