//! The statements behind [`crate::VectorStore`]: the same tables as SQLite's; a write holds the
//! document row `FOR SHARE`, so a concurrent delete waits for it (or it finds the row gone and
//! stores nothing).

use postgres::Row;

use crate::Result;
use crate::flow::vectors::{ScanKey, VectorReads, VectorRows};
use crate::model::locale::Locale;
use crate::model::vector::{ScannedVector, StaleRow, VectorEntry, VectorIndex, WrittenRow};
use crate::model::version::Version;
use crate::plan::vector::{decode, encode};
use crate::postgres::convert::{RowExt, unsigned};
use crate::postgres::pool::Conn;
use crate::postgres::write::{BUMP_VECTOR_SEQ, WriteTx};
use crate::reference::DocumentReference;
use crate::stored::{self, reference_columns, row_key, to_i64};

/// The stale rows of a wiki: no entries for the row, or entries of another version.
const STALE: &str = "FROM documents d LEFT JOIN vector_rows v \
       ON v.index_name = $2 AND v.document_id = d.id \
     WHERE d.wiki = $1 AND (v.document_id IS NULL \
       OR v.version_major <> d.version_major OR v.version_minor <> d.version_minor)";

/// The id of exactly one row, by `(wiki, space, name, locale)`.
const ROW_ID: &str =
    "SELECT id FROM documents WHERE wiki = $1 AND space = $2 AND name = $3 AND locale = $4";

impl VectorRows for WriteTx<'_> {
    fn hold_row(
        &mut self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<i64>> {
        let (wiki, space, name) = reference_columns(reference);
        self.query_opt(
            &format!("{ROW_ID} FOR SHARE"),
            &[&wiki, &space, &name, &row_key(locale)],
        )?
        .map(|row| row.col(0))
        .transpose()
    }

    /// Also tells the feed, once the write commits, so this process's commit marker moves.
    fn bump_vector_seq(&mut self) -> Result<u64> {
        let value = unsigned(
            self.query_one(BUMP_VECTOR_SEQ, &[])?.col::<i64>(0)?,
            "vector sequence",
        )?;
        self.vectors_written(value);
        Ok(value)
    }

    fn replace_vectors(
        &mut self,
        index: &str,
        document_id: i64,
        version: Version,
        written: u64,
        entries: &[VectorEntry],
    ) -> Result<()> {
        self.execute(
            "INSERT INTO vector_rows \
             (index_name, document_id, version_major, version_minor, written_seq) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (index_name, document_id) DO UPDATE \
             SET version_major = excluded.version_major, \
               version_minor = excluded.version_minor, written_seq = excluded.written_seq",
            &[
                &index,
                &document_id,
                &i64::from(version.major),
                &i64::from(version.minor),
                &i64::try_from(written).unwrap_or(i64::MAX),
            ],
        )?;
        self.execute(
            "DELETE FROM vector_entries WHERE index_name = $1 AND document_id = $2",
            &[&index, &document_id],
        )?;
        for entry in entries {
            self.execute(
                "INSERT INTO vector_entries \
                 (index_name, document_id, entry_key, digest, text, vector) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[
                    &index,
                    &document_id,
                    &entry.key,
                    &entry.digest,
                    &entry.text,
                    &encode(&entry.vector),
                ],
            )?;
        }
        Ok(())
    }

    fn delete_vectors(&mut self, index: &VectorIndex) -> Result<u64> {
        self.execute(
            "DELETE FROM vector_rows WHERE index_name = $2 AND document_id IN \
             (SELECT id FROM documents WHERE wiki = $1)",
            &[&index.wiki.as_str(), &index.name],
        )
    }
}

impl VectorReads for Conn {
    fn stale_count(&mut self, index: &VectorIndex) -> Result<u64> {
        let total: i64 = self
            .query_one(
                &format!("SELECT count(*) {STALE}"),
                &[&index.wiki.as_str(), &index.name],
            )?
            .col(0)?;
        unsigned(total, "stale row count")
    }

    fn stale_rows(&mut self, index: &VectorIndex, limit: usize) -> Result<Vec<StaleRow>> {
        self.query(
            &format!(
                "SELECT d.space, d.name, d.locale, d.version_major, d.version_minor {STALE} \
                 ORDER BY d.id LIMIT $3"
            ),
            &[&index.wiki.as_str(), &index.name, &to_i64(limit)],
        )?
        .iter()
        .map(|row| {
            Ok(StaleRow {
                reference: page(index, row)?,
                locale: stored::row_locale(row.col(2)?)?,
                version: version(row.col(3)?, row.col(4)?)?,
            })
        })
        .collect()
    }

    fn row_id(
        &mut self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<i64>> {
        let (wiki, space, name) = reference_columns(reference);
        self.query_opt(ROW_ID, &[&wiki, &space, &name, &row_key(locale)])?
            .map(|row| row.col(0))
            .transpose()
    }

    fn vector_version(&mut self, index: &str, document_id: i64) -> Result<Option<Version>> {
        self.query_opt(
            "SELECT version_major, version_minor FROM vector_rows \
             WHERE index_name = $1 AND document_id = $2",
            &[&index, &document_id],
        )?
        .map(|row| version(row.col(0)?, row.col(1)?))
        .transpose()
    }

    fn vector_entries(&mut self, index: &str, document_id: i64) -> Result<Vec<VectorEntry>> {
        self.query(
            "SELECT entry_key, digest, text, vector FROM vector_entries \
             WHERE index_name = $1 AND document_id = $2 ORDER BY entry_key",
            &[&index, &document_id],
        )?
        .iter()
        .map(|row| {
            Ok(VectorEntry {
                key: row.col(0)?,
                digest: row.col(1)?,
                text: row.col(2)?,
                vector: decode(row.col::<&[u8]>(3)?)?,
            })
        })
        .collect()
    }

    fn vector_page(
        &mut self,
        index: &VectorIndex,
        after: Option<&ScanKey>,
        limit: usize,
    ) -> Result<Vec<(ScanKey, ScannedVector)>> {
        let (after_id, after_key) = after.map_or((i64::MIN, ""), |(id, key)| (*id, key.as_str()));
        self.query(
            "SELECT d.space, d.name, d.locale, d.language, d.hidden, \
               e.entry_key, e.digest, e.text, e.vector, e.document_id \
             FROM vector_entries e JOIN documents d ON d.id = e.document_id \
             WHERE e.index_name = $2 AND d.wiki = $1 \
               AND (e.document_id, e.entry_key) > ($3, $4) \
             ORDER BY e.document_id, e.entry_key LIMIT $5",
            &[
                &index.wiki.as_str(),
                &index.name,
                &after_id,
                &after_key,
                &to_i64(limit),
            ],
        )?
        .iter()
        .map(|row| {
            let key: String = row.col(5)?;
            let scanned = ScannedVector {
                reference: page(index, row)?,
                locale: stored::row_locale(row.col(2)?)?,
                language: stored::locale(row.col(3)?)?,
                hidden: row.col(4)?,
                entry: VectorEntry {
                    key: key.clone(),
                    digest: row.col(6)?,
                    text: row.col(7)?,
                    vector: decode(row.col::<&[u8]>(8)?)?,
                },
            };
            Ok(((row.col(9)?, key), scanned))
        })
        .collect()
    }

    fn vector_seq(&mut self) -> Result<u64> {
        let row = self.query_one("SELECT value FROM vector_seq WHERE id = 1", &[])?;
        unsigned(row.col::<i64>(0)?, "vector sequence")
    }

    fn written_rows(
        &mut self,
        index: &VectorIndex,
        since: u64,
        limit: usize,
    ) -> Result<Vec<WrittenRow>> {
        self.query(
            "SELECT d.space, d.name, d.locale \
             FROM vector_rows v JOIN documents d ON d.id = v.document_id \
             WHERE v.index_name = $2 AND d.wiki = $1 AND v.written_seq > $3 \
             ORDER BY v.written_seq LIMIT $4",
            &[
                &index.wiki.as_str(),
                &index.name,
                &i64::try_from(since).unwrap_or(i64::MAX),
                &to_i64(limit),
            ],
        )?
        .iter()
        .map(|row| {
            Ok(WrittenRow {
                reference: page(index, row)?,
                locale: stored::row_locale(row.col(2)?)?,
            })
        })
        .collect()
    }
}

/// The page of `index`'s wiki in columns 0 (space) and 1 (name).
fn page(index: &VectorIndex, row: &Row) -> Result<DocumentReference> {
    stored::page(&index.wiki, &stored::space(row.col(0)?)?, row.col(1)?)
}

fn version(major: i64, minor: i64) -> Result<Version> {
    Ok(Version {
        major: unsigned(major, "stored version")?,
        minor: unsigned(minor, "stored version")?,
    })
}
