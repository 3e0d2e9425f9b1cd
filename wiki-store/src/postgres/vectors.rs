//! The PostgreSQL implementation of [`crate::VectorStore`]: the same tables and rules as
//! SQLite's; a write holds the document row `FOR SHARE`, so a concurrent delete waits for it
//! (or it finds the row gone and stores nothing), and a scan pages by key so no result set
//! holds a whole index.

use crate::Result;
use crate::api::VectorStore;
use crate::model::locale::Locale;
use crate::model::vector::{
    ScannedVector, StaleRow, VectorBacklog, VectorChanges, VectorEntry, VectorIndex, VectorRow,
    WrittenRow,
};
use crate::model::version::Version;
use crate::plan::vector::{decode, encode, validate_index, validate_row};
use crate::postgres::PostgresStore;
use crate::postgres::convert::{RowExt, unsigned};
use crate::postgres::pool::Conn;
use crate::postgres::write::BUMP_VECTOR_SEQ;
use crate::reference::DocumentReference;
use crate::stored::{self, row_key, to_i64};

/// The stale rows of a wiki: no entries for the row, or entries of another version.
const STALE: &str = "FROM documents d LEFT JOIN vector_rows v \
       ON v.index_name = $2 AND v.document_id = d.id \
     WHERE d.wiki = $1 AND (v.document_id IS NULL \
       OR v.version_major <> d.version_major OR v.version_minor <> d.version_minor)";

/// Entries a scan reads per statement.
const SCAN_PAGE: i64 = 512;

impl VectorStore for PostgresStore {
    fn vector_backlog(&self, index: &VectorIndex, limit: usize) -> Result<VectorBacklog> {
        validate_index(index)?;
        let wiki = index.wiki.as_str();
        let limit = to_i64(limit);
        self.snapshot(|conn| {
            let total: i64 = conn
                .query_one(&format!("SELECT count(*) {STALE}"), &[&wiki, &index.name])?
                .col(0)?;
            let mut rows = Vec::new();
            for row in conn.query(
                &format!(
                    "SELECT d.space, d.name, d.locale, d.version_major, d.version_minor {STALE} \
                     ORDER BY d.id LIMIT $3"
                ),
                &[&wiki, &index.name, &limit],
            )? {
                rows.push(StaleRow {
                    reference: stored::page(
                        &index.wiki,
                        &stored::space(&row.col::<String>(0)?)?,
                        row.col(1)?,
                    )?,
                    locale: stored::row_locale(&row.col::<String>(2)?)?,
                    version: version(row.col(3)?, row.col(4)?)?,
                });
            }
            Ok(VectorBacklog {
                rows,
                total: unsigned(total, "stale row count")?,
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
        self.snapshot(|conn| {
            let Some(id) = row_id(conn, reference, locale, "")? else {
                return Ok(None);
            };
            let Some(stored_version) = conn.query_opt(
                "SELECT version_major, version_minor FROM vector_rows \
                 WHERE index_name = $1 AND document_id = $2",
                &[&index.name, &id],
            )?
            else {
                return Ok(None);
            };
            let mut entries = Vec::new();
            for row in conn.query(
                "SELECT entry_key, digest, text, vector FROM vector_entries \
                 WHERE index_name = $1 AND document_id = $2 ORDER BY entry_key",
                &[&index.name, &id],
            )? {
                entries.push(VectorEntry {
                    key: row.col(0)?,
                    digest: row.col(1)?,
                    text: row.col(2)?,
                    vector: decode(row.col::<&[u8]>(3)?)?,
                });
            }
            Ok(Some(VectorRow {
                reference: reference.clone(),
                locale: locale.cloned(),
                version: version(stored_version.col(0)?, stored_version.col(1)?)?,
                entries,
            }))
        })
    }

    fn put_vector_row(&self, index: &VectorIndex, row: &VectorRow) -> Result<bool> {
        validate_row(index, row)?;
        let major = i64::from(row.version.major);
        let minor = i64::from(row.version.minor);
        let vectors: Vec<Vec<u8>> = row.entries.iter().map(|e| encode(&e.vector)).collect();
        let written = self.write(|tx| {
            tx.nothing_changed();
            let Some(id) = row_id(tx, &row.reference, row.locale.as_ref(), " FOR SHARE")? else {
                return Ok(None);
            };
            let written: i64 = tx.query_one(BUMP_VECTOR_SEQ, &[])?.col(0)?;
            tx.execute(
                "INSERT INTO vector_rows \
                 (index_name, document_id, version_major, version_minor, written_seq) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (index_name, document_id) DO UPDATE \
                 SET version_major = excluded.version_major, \
                   version_minor = excluded.version_minor, written_seq = excluded.written_seq",
                &[&index.name, &id, &major, &minor, &written],
            )?;
            tx.execute(
                "DELETE FROM vector_entries WHERE index_name = $1 AND document_id = $2",
                &[&index.name, &id],
            )?;
            for (entry, vector) in row.entries.iter().zip(&vectors) {
                tx.execute(
                    "INSERT INTO vector_entries \
                     (index_name, document_id, entry_key, digest, text, vector) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                    &[
                        &index.name,
                        &id,
                        &entry.key,
                        &entry.digest,
                        &entry.text,
                        vector,
                    ],
                )?;
            }
            Ok(Some(written))
        })?;
        match written {
            Some(seq) => {
                self.feed()
                    .vectors_committed(unsigned(seq, "vector sequence")?);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn scan_vectors(
        &self,
        index: &VectorIndex,
        visit: &mut dyn FnMut(ScannedVector) -> bool,
    ) -> Result<()> {
        validate_index(index)?;
        let wiki = index.wiki.as_str();
        let mut after: (i64, String) = (0, String::new());
        loop {
            let page = self.read(|conn| {
                conn.query(
                    "SELECT d.space, d.name, d.locale, d.language, d.hidden, \
                       e.entry_key, e.digest, e.text, e.vector, e.document_id \
                     FROM vector_entries e JOIN documents d ON d.id = e.document_id \
                     WHERE e.index_name = $2 AND d.wiki = $1 \
                       AND (e.document_id, e.entry_key) > ($3, $4) \
                     ORDER BY e.document_id, e.entry_key LIMIT $5",
                    &[&wiki, &index.name, &after.0, &after.1, &SCAN_PAGE],
                )
            })?;
            let full = i64::try_from(page.len()).unwrap_or(i64::MAX) >= SCAN_PAGE;
            for row in &page {
                let scanned = ScannedVector {
                    reference: stored::page(
                        &index.wiki,
                        &stored::space(&row.col::<String>(0)?)?,
                        row.col(1)?,
                    )?,
                    locale: stored::row_locale(&row.col::<String>(2)?)?,
                    language: stored::locale(&row.col::<String>(3)?)?,
                    hidden: row.col(4)?,
                    entry: VectorEntry {
                        key: row.col(5)?,
                        digest: row.col(6)?,
                        text: row.col(7)?,
                        vector: decode(row.col::<&[u8]>(8)?)?,
                    },
                };
                after = (row.col(9)?, scanned.entry.key.clone());
                if !visit(scanned) {
                    return Ok(());
                }
            }
            if !full {
                return Ok(());
            }
        }
    }

    fn clear_vectors(&self, index: &VectorIndex) -> Result<u64> {
        validate_index(index)?;
        let wiki = index.wiki.as_str();
        let (removed, written) = self.write(|tx| {
            tx.nothing_changed();
            let removed = tx.execute(
                "DELETE FROM vector_rows WHERE index_name = $2 AND document_id IN \
                 (SELECT id FROM documents WHERE wiki = $1)",
                &[&wiki, &index.name],
            )?;
            let written = if removed > 0 {
                Some(tx.query_one(BUMP_VECTOR_SEQ, &[])?.col::<i64>(0)?)
            } else {
                None
            };
            Ok((removed, written))
        })?;
        if let Some(seq) = written {
            self.feed()
                .vectors_committed(unsigned(seq, "vector sequence")?);
        }
        Ok(removed)
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
        let wiki = index.wiki.as_str();
        let since = i64::try_from(since).unwrap_or(i64::MAX);
        let fetch = to_i64(limit.saturating_add(1));
        // One snapshot: every write up to the sequence read is visible to the row read (vector
        // writes commit in the order of their values, see `BUMP_VECTOR_SEQ`).
        self.snapshot(|conn| {
            let seq = read_vector_seq(conn)?;
            let mut rows = Vec::new();
            for row in conn.query(
                "SELECT d.space, d.name, d.locale \
                 FROM vector_rows v JOIN documents d ON d.id = v.document_id \
                 WHERE v.index_name = $2 AND d.wiki = $1 AND v.written_seq > $3 \
                 ORDER BY v.written_seq LIMIT $4",
                &[&wiki, &index.name, &since, &fetch],
            )? {
                rows.push(WrittenRow {
                    reference: stored::page(
                        &index.wiki,
                        &stored::space(&row.col::<String>(0)?)?,
                        row.col(1)?,
                    )?,
                    locale: stored::row_locale(&row.col::<String>(2)?)?,
                });
            }
            let more = rows.len() > limit;
            rows.truncate(limit);
            Ok(VectorChanges { seq, rows, more })
        })
    }
}

fn read_vector_seq(conn: &mut Conn) -> Result<u64> {
    let row = conn.query_one("SELECT value FROM vector_seq WHERE id = 1", &[])?;
    unsigned(row.col::<i64>(0)?, "vector sequence")
}

/// The id of exactly one row (`None`: the default row), if it exists; `lock` is appended to
/// the statement (`" FOR SHARE"` in a write).
fn row_id(
    conn: &mut Conn,
    reference: &DocumentReference,
    locale: Option<&Locale>,
    lock: &str,
) -> Result<Option<i64>> {
    let space = reference.space().to_string();
    conn.query_opt(
        &format!(
            "SELECT id FROM documents WHERE wiki = $1 AND space = $2 AND name = $3 \
             AND locale = $4{lock}"
        ),
        &[
            &reference.wiki().as_str(),
            &space,
            &reference.name(),
            &row_key(locale),
        ],
    )?
    .map(|row| row.col(0))
    .transpose()
}

fn version(major: i64, minor: i64) -> Result<Version> {
    Ok(Version {
        major: unsigned(major, "stored version")?,
        minor: unsigned(minor, "stored version")?,
    })
}
