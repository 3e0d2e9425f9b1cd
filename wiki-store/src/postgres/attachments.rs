//! The statements behind [`crate::AttachmentStore`]: versions' bytes in `bytea`.

use postgres::Row;

use crate::Result;
use crate::attachments::MediaTypes;
use crate::flow::Transaction;
use crate::flow::attachments::{AttachmentReads, AttachmentRows};
use crate::model::attachment::{AttachmentInfo, AttachmentWrite};
use crate::model::version::Version;
use crate::plan::attachment::CurrentAttachment;
use crate::postgres::convert::{RowExt, unsigned};
use crate::postgres::documents::{version, version_columns};
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::reference::DocumentReference;
use crate::stored::reference_columns;
use crate::stored::{from_ms, to_i64};

const INFO_COLUMNS: &str = "a.name, v.version_major, v.version_minor, v.size, v.declared_mime, v.sniffed_mime, \
                            v.author, v.comment, v.created_ms";

fn info_row(row: &Row) -> Result<AttachmentInfo> {
    let (version, size, media) = version_of(row)?;
    Ok(AttachmentInfo {
        name: row.col(0)?,
        version,
        size,
        media,
        author: row.col(6)?,
        comment: row.col(7)?,
        date: from_ms(row.col(8)?),
    })
}

/// A version's number, size and media types, from columns 1 to 5 of a row.
fn version_of(row: &Row) -> Result<(Version, u64, MediaTypes)> {
    Ok((
        version(row, 1)?,
        unsigned(row.col::<i64>(3)?, "attachment size")?,
        MediaTypes {
            declared: row.col(4)?,
            sniffed: row.col(5)?,
        },
    ))
}

impl AttachmentReads for Conn {
    fn current_attachments(&mut self, document_id: i64) -> Result<Vec<AttachmentInfo>> {
        self.query(
            &format!(
                "SELECT DISTINCT ON (a.name) {INFO_COLUMNS} FROM attachments a \
                 JOIN attachment_versions v ON v.attachment_id = a.id WHERE a.document_id = $1 \
                 ORDER BY a.name, v.version_major DESC, v.version_minor DESC"
            ),
            &[&document_id],
        )?
        .iter()
        .map(info_row)
        .collect()
    }

    fn attachment_history(
        &mut self,
        reference: &DocumentReference,
        name: &str,
    ) -> Result<Vec<AttachmentInfo>> {
        let (wiki, space, page) = reference_columns(reference);
        self.query(
            &format!(
                "SELECT {INFO_COLUMNS} FROM documents d JOIN attachments a ON a.document_id = d.id \
                 JOIN attachment_versions v ON v.attachment_id = a.id \
                 WHERE d.wiki = $1 AND d.space = $2 AND d.name = $3 AND d.locale = '' AND a.name = $4 \
                 ORDER BY v.version_major DESC, v.version_minor DESC"
            ),
            &[&wiki, &space, &page, &name],
        )?
        .iter()
        .map(info_row)
        .collect()
    }

    fn attachment_content(
        &mut self,
        reference: &DocumentReference,
        name: &str,
        version: Option<Version>,
    ) -> Result<Option<(AttachmentInfo, Vec<u8>)>> {
        let (wiki, space, page) = reference_columns(reference);
        let (major, minor) = match version.map(version_columns) {
            Some((major, minor)) => (Some(major), Some(minor)),
            None => (None, None),
        };
        self.query_opt(
            &format!(
                "SELECT {INFO_COLUMNS}, v.content FROM documents d JOIN attachments a ON a.document_id = d.id \
                 JOIN attachment_versions v ON v.attachment_id = a.id \
                 WHERE d.wiki = $1 AND d.space = $2 AND d.name = $3 AND d.locale = '' AND a.name = $4 \
                 AND ($5::bigint IS NULL OR (v.version_major = $5 AND v.version_minor = $6)) \
                 ORDER BY v.version_major DESC, v.version_minor DESC LIMIT 1"
            ),
            &[&wiki, &space, &page, &name, &major, &minor],
        )?
        .map(|row| Ok((info_row(&row)?, row.col::<Vec<u8>>(9)?)))
        .transpose()
    }
}

impl AttachmentRows for WriteTx<'_> {
    fn current_version(
        &mut self,
        document_id: i64,
        name: &str,
    ) -> Result<Option<(i64, CurrentAttachment)>> {
        self.query_opt(
            "SELECT a.id, v.version_major, v.version_minor, v.size, v.declared_mime, v.sniffed_mime \
             FROM attachments a JOIN attachment_versions v ON v.attachment_id = a.id \
             WHERE a.document_id = $1 AND a.name = $2 \
             ORDER BY v.version_major DESC, v.version_minor DESC LIMIT 1",
            &[&document_id, &name],
        )?
        .map(|row| {
            let (version, size, media) = version_of(&row)?;
            Ok((
                row.col(0)?,
                CurrentAttachment {
                    version,
                    size,
                    media,
                },
            ))
        })
        .transpose()
    }

    fn same_bytes(&mut self, attachment_id: i64, version: Version, content: &[u8]) -> Result<bool> {
        let (major, minor) = version_columns(version);
        self.query_one(
            "SELECT content = $4 FROM attachment_versions \
             WHERE attachment_id = $1 AND version_major = $2 AND version_minor = $3",
            &[&attachment_id, &major, &minor, &content],
        )?
        .col(0)
    }

    fn attachment_id(&mut self, document_id: i64, name: &str) -> Result<Option<i64>> {
        self.query_opt(
            "SELECT id FROM attachments WHERE document_id = $1 AND name = $2",
            &[&document_id, &name],
        )?
        .map(|row| row.col(0))
        .transpose()
    }

    fn insert_attachment(&mut self, document_id: i64, name: &str) -> Result<i64> {
        self.query_one(
            "INSERT INTO attachments (document_id, name) VALUES ($1, $2) RETURNING id",
            &[&document_id, &name],
        )?
        .col(0)
    }

    fn insert_version(
        &mut self,
        attachment_id: i64,
        version: Version,
        write: &AttachmentWrite,
        media: &MediaTypes,
    ) -> Result<()> {
        let (major, minor) = version_columns(version);
        let created = self.now_ms();
        self.execute(
            "INSERT INTO attachment_versions (attachment_id, version_major, version_minor, size, declared_mime, \
             sniffed_mime, author, comment, created_ms, content) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            &[
                &attachment_id,
                &major,
                &minor,
                &to_i64(write.content.len()),
                &media.declared,
                &media.sniffed,
                &write.author,
                &write.comment,
                &created,
                &write.content,
            ],
        )?;
        Ok(())
    }
}
