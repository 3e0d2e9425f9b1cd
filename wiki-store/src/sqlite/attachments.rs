//! The statements behind [`crate::AttachmentStore`].

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::Result;
use crate::attachments::MediaTypes;
use crate::flow::Transaction;
use crate::flow::attachments::{AttachmentReads, AttachmentRows};
use crate::flow::documents::DocumentReads;
use crate::model::attachment::{AttachmentInfo, AttachmentWrite};
use crate::model::version::Version;
use crate::plan::attachment::CurrentAttachment;
use crate::reference::DocumentReference;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::write::WriteTx;
use crate::stored::from_ms;

const INFO_COLUMNS: &str = "a.name, v.version_major, v.version_minor, v.size, v.declared_mime, v.sniffed_mime, \
                            v.author, v.comment, v.created_ms";

fn info_row(row: &Row<'_>) -> rusqlite::Result<AttachmentInfo> {
    let (version, size, media) = version_columns(row)?;
    Ok(AttachmentInfo {
        name: row.get(0)?,
        version,
        size,
        media,
        author: row.get(6)?,
        comment: row.get(7)?,
        date: from_ms(row.get(8)?),
    })
}

/// A version's number, size and media types, from columns 1 to 5 of a row.
fn version_columns(row: &Row<'_>) -> rusqlite::Result<(Version, u64, MediaTypes)> {
    Ok((
        Version {
            major: row.get(1)?,
            minor: row.get(2)?,
        },
        row.get::<_, i64>(3)?.unsigned_abs(),
        MediaTypes {
            declared: row.get(4)?,
            sniffed: row.get(5)?,
        },
    ))
}

/// The current version of each attachment: the highest (major, minor) per attachment.
const CURRENT: &str = "NOT EXISTS (SELECT 1 FROM attachment_versions w WHERE w.attachment_id = v.attachment_id \
                       AND (w.version_major > v.version_major OR (w.version_major = v.version_major \
                       AND w.version_minor > v.version_minor)))";

impl AttachmentReads for &Connection {
    fn current_attachments(&mut self, document_id: i64) -> Result<Vec<AttachmentInfo>> {
        let sql = format!(
            "SELECT {INFO_COLUMNS} FROM attachments a JOIN attachment_versions v ON v.attachment_id = a.id \
             WHERE a.document_id = ?1 AND {CURRENT} ORDER BY a.name"
        );
        self.prepare_cached(&sql)
            .db()?
            .query_map([document_id], info_row)
            .db()?
            .collect::<rusqlite::Result<Vec<_>>>()
            .db()
    }

    fn attachment_history(
        &mut self,
        reference: &DocumentReference,
        name: &str,
    ) -> Result<Vec<AttachmentInfo>> {
        let Some(document_id) = self.default_row_id(reference)? else {
            return Ok(Vec::new());
        };
        let sql = format!(
            "SELECT {INFO_COLUMNS} FROM attachments a JOIN attachment_versions v ON v.attachment_id = a.id \
             WHERE a.document_id = ?1 AND a.name = ?2 ORDER BY v.version_major DESC, v.version_minor DESC"
        );
        self.prepare_cached(&sql)
            .db()?
            .query_map(params![document_id, name], info_row)
            .db()?
            .collect::<rusqlite::Result<Vec<_>>>()
            .db()
    }

    fn attachment_content(
        &mut self,
        reference: &DocumentReference,
        name: &str,
        version: Option<Version>,
    ) -> Result<Option<(AttachmentInfo, Vec<u8>)>> {
        let Some(document_id) = self.default_row_id(reference)? else {
            return Ok(None);
        };
        let sql = format!(
            "SELECT {INFO_COLUMNS}, v.content FROM attachments a \
             JOIN attachment_versions v ON v.attachment_id = a.id \
             WHERE a.document_id = ?1 AND a.name = ?2 AND (?3 IS NULL OR (v.version_major = ?3 AND v.version_minor = ?4)) \
             ORDER BY v.version_major DESC, v.version_minor DESC LIMIT 1"
        );
        self.prepare_cached(&sql)
            .db()?
            .query_row(
                params![
                    document_id,
                    name,
                    version.map(|v| v.major),
                    version.map(|v| v.minor)
                ],
                |row| Ok((info_row(row)?, row.get::<_, Vec<u8>>(9)?)),
            )
            .optional()
            .db()
    }
}

impl AttachmentRows for WriteTx<'_> {
    fn current_version(
        &mut self,
        document_id: i64,
        name: &str,
    ) -> Result<Option<(i64, CurrentAttachment)>> {
        self.prepare_cached(
            "SELECT a.id, v.version_major, v.version_minor, v.size, v.declared_mime, v.sniffed_mime \
             FROM attachments a JOIN attachment_versions v ON v.attachment_id = a.id \
             WHERE a.document_id = ?1 AND a.name = ?2 \
             ORDER BY v.version_major DESC, v.version_minor DESC LIMIT 1",
        )
        .db()?
        .query_row(params![document_id, name], |row| {
            let (version, size, media) = version_columns(row)?;
            Ok((
                row.get(0)?,
                CurrentAttachment {
                    version,
                    size,
                    media,
                },
            ))
        })
        .optional()
        .db()
    }

    fn same_bytes(&mut self, attachment_id: i64, version: Version, content: &[u8]) -> Result<bool> {
        self.prepare_cached(
            "SELECT content = ?4 FROM attachment_versions \
             WHERE attachment_id = ?1 AND version_major = ?2 AND version_minor = ?3",
        )
        .db()?
        .query_row(
            params![attachment_id, version.major, version.minor, content],
            |row| row.get(0),
        )
        .db()
    }

    fn attachment_id(&mut self, document_id: i64, name: &str) -> Result<Option<i64>> {
        self.prepare_cached("SELECT id FROM attachments WHERE document_id = ?1 AND name = ?2")
            .db()?
            .query_row(params![document_id, name], |row| row.get(0))
            .optional()
            .db()
    }

    fn insert_attachment(&mut self, document_id: i64, name: &str) -> Result<i64> {
        self.prepare_cached(
            "INSERT INTO attachments (document_id, name) VALUES (?1, ?2) RETURNING id",
        )
        .db()?
        .query_row(params![document_id, name], |row| row.get(0))
        .db()
    }

    fn insert_version(
        &mut self,
        attachment_id: i64,
        version: Version,
        write: &AttachmentWrite,
        media: &MediaTypes,
    ) -> Result<()> {
        let created = self.now_ms();
        self.prepare_cached(
            "INSERT INTO attachment_versions (attachment_id, version_major, version_minor, size, declared_mime, \
             sniffed_mime, author, comment, created_ms, content) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        )
        .db()?
        .execute(params![
            attachment_id,
            version.major,
            version.minor,
            stored_size(&write.content),
            media.declared,
            media.sniffed,
            write.author,
            write.comment,
            created,
            write.content
        ])
        .db()?;
        Ok(())
    }
}

/// The `size` column of `content`.
fn stored_size(content: &[u8]) -> i64 {
    crate::stored::to_i64(content.len())
}
