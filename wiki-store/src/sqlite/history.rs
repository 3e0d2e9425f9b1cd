//! Revisions of a row: listing and the full content of any version (diffs are
//! [`crate::history::diff`]).

use rusqlite::{Connection, OptionalExtension, params};

use crate::Result;
use crate::flow::documents::RevisionReads;
use crate::model::history::{Revision, RevisionInfo};
use crate::model::version::Version;
use crate::sqlite::convert::DbResultExt;
use crate::stored::{from_ms, to_i64};

impl RevisionReads for &Connection {
    fn revision_count(&mut self, row_id: i64) -> Result<u64> {
        let total: i64 = self
            .prepare_cached("SELECT count(*) FROM revisions WHERE document_id = ?1")
            .db()?
            .query_row([row_id], |row| row.get(0))
            .db()?;
        Ok(u64::try_from(total).unwrap_or_default())
    }

    fn revision_infos(
        &mut self,
        row_id: i64,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<RevisionInfo>> {
        self.prepare_cached(
            "SELECT major, minor, author, saved_ms, comment FROM revisions WHERE document_id = ?1 \
             ORDER BY major DESC, minor DESC LIMIT ?2 OFFSET ?3",
        )
        .db()?
        .query_map(params![row_id, to_i64(limit), to_i64(offset)], |row| {
            Ok(RevisionInfo {
                version: Version {
                    major: row.get(0)?,
                    minor: row.get(1)?,
                },
                author: row.get(2)?,
                date: from_ms(row.get(3)?),
                comment: row.get(4)?,
            })
        })
        .db()?
        .collect::<rusqlite::Result<Vec<_>>>()
        .db()
    }

    fn revision(&mut self, row_id: i64, version: Version) -> Result<Option<Revision>> {
        self.prepare_cached(
            "SELECT author, saved_ms, comment, title, content, syntax, hidden, structure FROM revisions \
             WHERE document_id = ?1 AND major = ?2 AND minor = ?3",
        )
        .db()?
        .query_row(params![row_id, version.major, version.minor], |row| {
            Ok((Revision {
                info: RevisionInfo {
                    version,
                    author: row.get(0)?,
                    date: from_ms(row.get(1)?),
                    comment: row.get(2)?,
                },
                title: row.get(3)?,
                content: row.get(4)?,
                syntax: row.get(5)?,
                hidden: row.get(6)?,
                structure: None,
            }, row.get::<_, Option<String>>(7)?))
        })
        .optional()
        .db()?
        .map(|(mut revision, structure)| {
            revision.structure = crate::structure::decode(structure.as_deref())?;
            Ok(revision)
        })
        .transpose()
    }
}
