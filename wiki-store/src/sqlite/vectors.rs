//! The SQLite implementation of [`crate::VectorStore`].

use rusqlite::{Connection, OptionalExtension, params};

use crate::Result;
use crate::api::VectorStore;
use crate::model::locale::Locale;
use crate::model::vector::{
    ScannedVector, StaleRow, VectorBacklog, VectorChanges, VectorEntry, VectorIndex, VectorRow,
    WrittenRow,
};
use crate::model::version::Version;
use crate::plan::vector::{decode, encode, validate_index, validate_row};
use crate::reference::DocumentReference;
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::DbResultExt;
use crate::stored::{self, row_key, to_i64};

/// The stale rows of a wiki: no entries for the row, or entries of another version.
const STALE: &str = "FROM documents d LEFT JOIN vector_rows v \
       ON v.index_name = ?2 AND v.document_id = d.id \
     WHERE d.wiki = ?1 AND (v.document_id IS NULL \
       OR v.version_major <> d.version_major OR v.version_minor <> d.version_minor)";

impl VectorStore for SqliteStore {
    fn vector_backlog(&self, index: &VectorIndex, limit: usize) -> Result<VectorBacklog> {
        validate_index(index)?;
        self.read(|conn| {
            let total: i64 = conn
                .prepare_cached(&format!("SELECT count(*) {STALE}"))
                .db()?
                .query_row(params![index.wiki.as_str(), index.name], |row| row.get(0))
                .db()?;
            let mut stmt = conn
                .prepare_cached(&format!(
                    "SELECT d.space, d.name, d.locale, d.version_major, d.version_minor {STALE} \
                     ORDER BY d.id LIMIT ?3"
                ))
                .db()?;
            let mut found = stmt
                .query(params![index.wiki.as_str(), index.name, to_i64(limit)])
                .db()?;
            let mut rows = Vec::new();
            while let Some(row) = found.next().db()? {
                rows.push(StaleRow {
                    reference: stored::page(
                        &index.wiki,
                        &stored::space(&row.get::<_, String>(0).db()?)?,
                        row.get(1).db()?,
                    )?,
                    locale: stored::row_locale(&row.get::<_, String>(2).db()?)?,
                    version: version(row.get(3).db()?, row.get(4).db()?)?,
                });
            }
            Ok(VectorBacklog {
                rows,
                total: u64::try_from(total).unwrap_or_default(),
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
        self.read(|conn| {
            let Some(id) = row_id(conn, reference, locale)? else {
                return Ok(None);
            };
            let stored_version: Option<(i64, i64)> = conn
                .prepare_cached(
                    "SELECT version_major, version_minor FROM vector_rows \
                     WHERE index_name = ?1 AND document_id = ?2",
                )
                .db()?
                .query_row(params![index.name, id], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })
                .optional()
                .db()?;
            let Some((major, minor)) = stored_version else {
                return Ok(None);
            };
            let mut stmt = conn
                .prepare_cached(
                    "SELECT entry_key, digest, text, vector FROM vector_entries \
                     WHERE index_name = ?1 AND document_id = ?2 ORDER BY entry_key",
                )
                .db()?;
            let mut found = stmt.query(params![index.name, id]).db()?;
            let mut entries = Vec::new();
            while let Some(row) = found.next().db()? {
                entries.push(VectorEntry {
                    key: row.get(0).db()?,
                    digest: row.get(1).db()?,
                    text: row.get(2).db()?,
                    vector: decode(&row.get::<_, Vec<u8>>(3).db()?)?,
                });
            }
            Ok(Some(VectorRow {
                reference: reference.clone(),
                locale: locale.cloned(),
                version: version(major, minor)?,
                entries,
            }))
        })
    }

    fn put_vector_row(&self, index: &VectorIndex, row: &VectorRow) -> Result<bool> {
        validate_row(index, row)?;
        self.write(|tx| {
            tx.nothing_changed();
            let Some(id) = row_id(tx, &row.reference, row.locale.as_ref())? else {
                return Ok(false);
            };
            let written = bump_vector_seq(tx)?;
            tx.prepare_cached(
                "INSERT INTO vector_rows \
                 (index_name, document_id, version_major, version_minor, written_seq) \
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (index_name, document_id) DO UPDATE \
                 SET version_major = excluded.version_major, \
                   version_minor = excluded.version_minor, written_seq = excluded.written_seq",
            )
            .db()?
            .execute(params![
                index.name,
                id,
                row.version.major,
                row.version.minor,
                written
            ])
            .db()?;
            tx.prepare_cached(
                "DELETE FROM vector_entries WHERE index_name = ?1 AND document_id = ?2",
            )
            .db()?
            .execute(params![index.name, id])
            .db()?;
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO vector_entries \
                     (index_name, document_id, entry_key, digest, text, vector) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .db()?;
            for entry in &row.entries {
                insert
                    .execute(params![
                        index.name,
                        id,
                        entry.key,
                        entry.digest,
                        entry.text,
                        encode(&entry.vector)
                    ])
                    .db()?;
            }
            Ok(true)
        })
    }

    fn scan_vectors(
        &self,
        index: &VectorIndex,
        visit: &mut dyn FnMut(ScannedVector) -> bool,
    ) -> Result<()> {
        validate_index(index)?;
        self.read(|conn| {
            let mut stmt = conn
                .prepare_cached(
                    "SELECT d.space, d.name, d.locale, d.language, d.hidden, \
                       e.entry_key, e.digest, e.text, e.vector \
                     FROM vector_entries e JOIN documents d ON d.id = e.document_id \
                     WHERE e.index_name = ?2 AND d.wiki = ?1",
                )
                .db()?;
            let mut found = stmt.query(params![index.wiki.as_str(), index.name]).db()?;
            while let Some(row) = found.next().db()? {
                let scanned = ScannedVector {
                    reference: stored::page(
                        &index.wiki,
                        &stored::space(&row.get::<_, String>(0).db()?)?,
                        row.get(1).db()?,
                    )?,
                    locale: stored::row_locale(&row.get::<_, String>(2).db()?)?,
                    language: stored::locale(&row.get::<_, String>(3).db()?)?,
                    hidden: row.get(4).db()?,
                    entry: VectorEntry {
                        key: row.get(5).db()?,
                        digest: row.get(6).db()?,
                        text: row.get(7).db()?,
                        vector: decode(&row.get::<_, Vec<u8>>(8).db()?)?,
                    },
                };
                if !visit(scanned) {
                    break;
                }
            }
            Ok(())
        })
    }

    fn clear_vectors(&self, index: &VectorIndex) -> Result<u64> {
        validate_index(index)?;
        self.write(|tx| {
            tx.nothing_changed();
            let removed = tx
                .prepare_cached(
                    "DELETE FROM vector_rows WHERE index_name = ?2 AND document_id IN \
                     (SELECT id FROM documents WHERE wiki = ?1)",
                )
                .db()?
                .execute(params![index.wiki.as_str(), index.name])
                .db()?;
            if removed > 0 {
                bump_vector_seq(tx)?;
            }
            Ok(u64::try_from(removed).unwrap_or_default())
        })
    }

    fn vector_seq(&self) -> Result<u64> {
        self.read(read_vector_seq)
    }

    fn vector_changes(
        &self,
        index: &VectorIndex,
        since: u64,
        limit: usize,
    ) -> Result<VectorChanges> {
        validate_index(index)?;
        let since = i64::try_from(since).unwrap_or(i64::MAX);
        // One read transaction: the sequence and the rows are of one snapshot.
        self.read(|conn| {
            let seq = read_vector_seq(conn)?;
            let mut stmt = conn
                .prepare_cached(
                    "SELECT d.space, d.name, d.locale \
                     FROM vector_rows v JOIN documents d ON d.id = v.document_id \
                     WHERE v.index_name = ?2 AND d.wiki = ?1 AND v.written_seq > ?3 \
                     ORDER BY v.written_seq LIMIT ?4",
                )
                .db()?;
            let mut found = stmt
                .query(params![
                    index.wiki.as_str(),
                    index.name,
                    since,
                    to_i64(limit.saturating_add(1))
                ])
                .db()?;
            let mut rows = Vec::new();
            while let Some(row) = found.next().db()? {
                rows.push(WrittenRow {
                    reference: stored::page(
                        &index.wiki,
                        &stored::space(&row.get::<_, String>(0).db()?)?,
                        row.get(1).db()?,
                    )?,
                    locale: stored::row_locale(&row.get::<_, String>(2).db()?)?,
                });
            }
            let more = rows.len() > limit;
            rows.truncate(limit);
            Ok(VectorChanges { seq, rows, more })
        })
    }
}

/// Advances the vector sequence inside the caller's write transaction; the new value.
fn bump_vector_seq(conn: &Connection) -> Result<i64> {
    conn.prepare_cached("UPDATE vector_seq SET value = value + 1 WHERE id = 1 RETURNING value")
        .db()?
        .query_row([], |row| row.get(0))
        .db()
}

fn read_vector_seq(conn: &Connection) -> Result<u64> {
    let value: i64 = conn
        .prepare_cached("SELECT value FROM vector_seq WHERE id = 1")
        .db()?
        .query_row([], |row| row.get(0))
        .db()?;
    Ok(u64::try_from(value).unwrap_or_default())
}

/// The id of exactly one row (`None`: the default row), if it exists.
fn row_id(
    conn: &Connection,
    reference: &DocumentReference,
    locale: Option<&Locale>,
) -> Result<Option<i64>> {
    conn.prepare_cached(
        "SELECT id FROM documents WHERE wiki = ?1 AND space = ?2 AND name = ?3 AND locale = ?4",
    )
    .db()?
    .query_row(
        params![
            reference.wiki().as_str(),
            reference.space().to_string(),
            reference.name(),
            row_key(locale)
        ],
        |row| row.get(0),
    )
    .optional()
    .db()
}

fn version(major: i64, minor: i64) -> Result<Version> {
    let part = |n: i64| u32::try_from(n).map_err(|_| stored::corrupt("stored version"));
    Ok(Version {
        major: part(major)?,
        minor: part(minor)?,
    })
}
