//! Revisions of a row: listing and the full content of any version (diffs are
//! [`crate::history::diff`]).

use crate::Result;
use crate::flow::documents::RevisionReads;
use crate::model::history::{Revision, RevisionInfo};
use crate::model::version::Version;
use crate::postgres::convert::{RowExt, unsigned};
use crate::postgres::documents::{version, version_columns};
use crate::postgres::pool::Conn;
use crate::stored::{from_ms, to_i64};

impl RevisionReads for Conn {
    fn revision_count(&mut self, row_id: i64) -> Result<u64> {
        let total: i64 = self
            .query_one(
                "SELECT count(*) FROM revisions WHERE document_id = $1",
                &[&row_id],
            )?
            .col(0)?;
        unsigned(total, "revision count")
    }

    fn revision_infos(
        &mut self,
        row_id: i64,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<RevisionInfo>> {
        self.query(
            "SELECT major, minor, author, saved_ms, comment FROM revisions WHERE document_id = $1 \
             ORDER BY major DESC, minor DESC LIMIT $2 OFFSET $3",
            &[&row_id, &to_i64(limit), &to_i64(offset)],
        )?
        .iter()
        .map(|row| {
            Ok(RevisionInfo {
                version: version(row, 0)?,
                author: row.col(2)?,
                date: from_ms(row.col(3)?),
                comment: row.col(4)?,
            })
        })
        .collect()
    }

    fn revision(&mut self, row_id: i64, version: Version) -> Result<Option<Revision>> {
        let (major, minor) = version_columns(version);
        self.query_opt(
            "SELECT author, saved_ms, comment, title, content, syntax, hidden, structure FROM revisions \
             WHERE document_id = $1 AND major = $2 AND minor = $3",
            &[&row_id, &major, &minor],
        )?
        .map(|row| {
            Ok(Revision {
                info: RevisionInfo {
                    version,
                    author: row.col(0)?,
                    date: from_ms(row.col(1)?),
                    comment: row.col(2)?,
                },
                title: row.col(3)?,
                content: row.col(4)?,
                syntax: row.col(5)?,
                hidden: row.col(6)?,
                structure: crate::structure::decode(row.col::<Option<String>>(7)?.as_deref())?,
            })
        })
        .transpose()
    }
}
