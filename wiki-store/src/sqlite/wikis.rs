//! The statements behind [`crate::WikiStore`].

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::Result;
use crate::flow::wikis::{WikiReads, WikiRows};
use crate::model::wiki::{Wiki, WikiId};
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::write::WriteTx;
use crate::stored::{self, from_ms};

impl WikiRows for WriteTx<'_> {
    fn insert_wiki(&mut self, id: &WikiId, pretty_name: &str, created_ms: i64) -> Result<bool> {
        let inserted = self
            .prepare_cached(
                "INSERT OR IGNORE INTO wikis (id, pretty_name, created_ms) VALUES (?1, ?2, ?3)",
            )
            .db()?
            .execute(params![id.as_str(), pretty_name, created_ms])
            .db()?;
        Ok(inserted > 0)
    }

    fn delete_wiki(&mut self, id: &WikiId) -> Result<bool> {
        let deleted = self
            .prepare_cached("DELETE FROM wikis WHERE id = ?1")
            .db()?
            .execute([id.as_str()])
            .db()?;
        Ok(deleted > 0)
    }
}

impl WikiReads for &Connection {
    fn wikis(&mut self) -> Result<Vec<Wiki>> {
        self.prepare_cached("SELECT id, pretty_name, created_ms FROM wikis ORDER BY id")
            .db()?
            .query_map([], wiki_row)
            .db()?
            .map(|row| wiki(row.db()?))
            .collect()
    }

    fn wiki(&mut self, id: &WikiId) -> Result<Option<Wiki>> {
        self.prepare_cached("SELECT id, pretty_name, created_ms FROM wikis WHERE id = ?1")
            .db()?
            .query_row([id.as_str()], wiki_row)
            .optional()
            .db()?
            .map(wiki)
            .transpose()
    }
}

/// A wiki row's columns.
fn wiki_row(row: &Row<'_>) -> rusqlite::Result<(String, String, i64)> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?))
}

/// A wiki from its columns; an id that no longer validates is reported, not trusted.
fn wiki((id, pretty_name, created_ms): (String, String, i64)) -> Result<Wiki> {
    Ok(Wiki {
        id: stored::wiki(&id)?,
        pretty_name,
        created: from_ms(created_ms),
    })
}
