//! The statements behind [`crate::VectorStore`].

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::Result;
use crate::flow::vectors::{ScanKey, VectorReads, VectorRows};
use crate::model::locale::Locale;
use crate::model::vector::{ScannedVector, StaleRow, VectorEntry, VectorIndex, WrittenRow};
use crate::model::version::Version;
use crate::plan::vector::{decode, encode};
use crate::reference::DocumentReference;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::write::WriteTx;
use crate::stored::{self, reference_columns, row_key, to_i64};

/// The stale rows of a wiki: no entries for the row, or entries of another version.
const STALE: &str = "FROM documents d LEFT JOIN vector_rows v \
       ON v.index_name = ?2 AND v.document_id = d.id \
     WHERE d.wiki = ?1 AND (v.document_id IS NULL \
       OR v.version_major <> d.version_major OR v.version_minor <> d.version_minor)";

/// The IMMEDIATE transaction already excludes every other writer: the row is read.
impl VectorRows for WriteTx<'_> {
    fn bump_vector_seq(&mut self) -> Result<u64> {
        let value: i64 = self
            .prepare_cached("UPDATE vector_seq SET value = value + 1 WHERE id = 1 RETURNING value")
            .db()?
            .query_row([], |row| row.get(0))
            .db()?;
        Ok(u64::try_from(value).unwrap_or_default())
    }

    fn replace_vectors(
        &mut self,
        index: &str,
        document_id: i64,
        version: Version,
        written: u64,
        entries: &[VectorEntry],
    ) -> Result<()> {
        self.prepare_cached(
            "INSERT INTO vector_rows \
             (index_name, document_id, version_major, version_minor, written_seq) \
             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (index_name, document_id) DO UPDATE \
             SET version_major = excluded.version_major, \
               version_minor = excluded.version_minor, written_seq = excluded.written_seq",
        )
        .db()?
        .execute(params![
            index,
            document_id,
            version.major,
            version.minor,
            i64::try_from(written).unwrap_or(i64::MAX)
        ])
        .db()?;
        self.prepare_cached(
            "DELETE FROM vector_entries WHERE index_name = ?1 AND document_id = ?2",
        )
        .db()?
        .execute(params![index, document_id])
        .db()?;
        let mut insert = self
            .prepare_cached(
                "INSERT INTO vector_entries \
                 (index_name, document_id, entry_key, digest, text, vector) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .db()?;
        for entry in entries {
            insert
                .execute(params![
                    index,
                    document_id,
                    entry.key,
                    entry.digest,
                    entry.text,
                    encode(&entry.vector)
                ])
                .db()?;
        }
        Ok(())
    }

    fn delete_vectors(&mut self, index: &VectorIndex) -> Result<u64> {
        let removed = self
            .prepare_cached(
                "DELETE FROM vector_rows WHERE index_name = ?2 AND document_id IN \
                 (SELECT id FROM documents WHERE wiki = ?1)",
            )
            .db()?
            .execute(params![index.wiki.as_str(), index.name])
            .db()?;
        Ok(u64::try_from(removed).unwrap_or_default())
    }
}

impl VectorReads for &Connection {
    fn stale_count(&mut self, index: &VectorIndex) -> Result<u64> {
        let total: i64 = self
            .prepare_cached(&format!("SELECT count(*) {STALE}"))
            .db()?
            .query_row(params![index.wiki.as_str(), index.name], |row| row.get(0))
            .db()?;
        Ok(u64::try_from(total).unwrap_or_default())
    }

    fn stale_rows(&mut self, index: &VectorIndex, limit: usize) -> Result<Vec<StaleRow>> {
        let mut stmt = self
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
                reference: page(index, row)?,
                locale: stored::row_locale(&row.get::<_, String>(2).db()?)?,
                version: version(row.get(3).db()?, row.get(4).db()?)?,
            });
        }
        Ok(rows)
    }

    fn row_id(
        &mut self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<i64>> {
        let (wiki, space, name) = reference_columns(reference);
        self.prepare_cached(
            "SELECT id FROM documents WHERE wiki = ?1 AND space = ?2 AND name = ?3 AND locale = ?4",
        )
        .db()?
        .query_row(params![wiki, space, name, row_key(locale)], |row| {
            row.get(0)
        })
        .optional()
        .db()
    }

    fn vector_version(&mut self, index: &str, document_id: i64) -> Result<Option<Version>> {
        let stored: Option<(i64, i64)> = self
            .prepare_cached(
                "SELECT version_major, version_minor FROM vector_rows \
                 WHERE index_name = ?1 AND document_id = ?2",
            )
            .db()?
            .query_row(params![index, document_id], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
            .optional()
            .db()?;
        stored
            .map(|(major, minor)| version(major, minor))
            .transpose()
    }

    fn vector_entries(&mut self, index: &str, document_id: i64) -> Result<Vec<VectorEntry>> {
        let mut stmt = self
            .prepare_cached(
                "SELECT entry_key, digest, text, vector FROM vector_entries \
                 WHERE index_name = ?1 AND document_id = ?2 ORDER BY entry_key",
            )
            .db()?;
        let mut found = stmt.query(params![index, document_id]).db()?;
        let mut entries = Vec::new();
        while let Some(row) = found.next().db()? {
            entries.push(VectorEntry {
                key: row.get(0).db()?,
                digest: row.get(1).db()?,
                text: row.get(2).db()?,
                vector: decode(&row.get::<_, Vec<u8>>(3).db()?)?,
            });
        }
        Ok(entries)
    }

    fn vector_page(
        &mut self,
        index: &VectorIndex,
        after: Option<&ScanKey>,
        limit: usize,
    ) -> Result<Vec<(ScanKey, ScannedVector)>> {
        let (after_id, after_key) = after.map_or((i64::MIN, ""), |(id, key)| (*id, key.as_str()));
        let mut stmt = self
            .prepare_cached(
                "SELECT d.space, d.name, d.locale, d.language, d.hidden, \
                   e.entry_key, e.digest, e.text, e.vector, e.document_id \
                 FROM vector_entries e JOIN documents d ON d.id = e.document_id \
                 WHERE e.index_name = ?2 AND d.wiki = ?1 \
                   AND (e.document_id, e.entry_key) > (?3, ?4) \
                 ORDER BY e.document_id, e.entry_key LIMIT ?5",
            )
            .db()?;
        let mut found = stmt
            .query(params![
                index.wiki.as_str(),
                index.name,
                after_id,
                after_key,
                to_i64(limit)
            ])
            .db()?;
        let mut page = Vec::new();
        while let Some(row) = found.next().db()? {
            let key: String = row.get(5).db()?;
            let scanned = ScannedVector {
                reference: self::page(index, row)?,
                locale: stored::row_locale(&row.get::<_, String>(2).db()?)?,
                language: stored::locale(&row.get::<_, String>(3).db()?)?,
                hidden: row.get(4).db()?,
                entry: VectorEntry {
                    key: key.clone(),
                    digest: row.get(6).db()?,
                    text: row.get(7).db()?,
                    vector: decode(&row.get::<_, Vec<u8>>(8).db()?)?,
                },
            };
            page.push(((row.get(9).db()?, key), scanned));
        }
        Ok(page)
    }

    fn vector_seq(&mut self) -> Result<u64> {
        let value: i64 = self
            .prepare_cached("SELECT value FROM vector_seq WHERE id = 1")
            .db()?
            .query_row([], |row| row.get(0))
            .db()?;
        Ok(u64::try_from(value).unwrap_or_default())
    }

    fn written_rows(
        &mut self,
        index: &VectorIndex,
        since: u64,
        limit: usize,
    ) -> Result<Vec<WrittenRow>> {
        let mut stmt = self
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
                i64::try_from(since).unwrap_or(i64::MAX),
                to_i64(limit)
            ])
            .db()?;
        let mut rows = Vec::new();
        while let Some(row) = found.next().db()? {
            rows.push(WrittenRow {
                reference: page(index, row)?,
                locale: stored::row_locale(&row.get::<_, String>(2).db()?)?,
            });
        }
        Ok(rows)
    }
}

/// The page of `index`'s wiki in columns 0 (space) and 1 (name).
fn page(index: &VectorIndex, row: &Row<'_>) -> Result<DocumentReference> {
    stored::page(
        &index.wiki,
        &stored::space(&row.get::<_, String>(0).db()?)?,
        row.get(1).db()?,
    )
}

fn version(major: i64, minor: i64) -> Result<Version> {
    let part = |n: i64| u32::try_from(n).map_err(|_| stored::corrupt("stored version"));
    Ok(Version {
        major: part(major)?,
        minor: part(minor)?,
    })
}
