//! The farm of wikis.

use rusqlite::{OptionalExtension, Row, params};

use crate::api::WikiStore;
use crate::model::wiki::{Wiki, WikiId};
use crate::plan::wiki::{
    created_event, deleted_event, unknown_wiki, validate_delete, validate_new_wiki, wiki_exists,
};
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::DbResultExt;
use crate::stored::{from_ms, now_ms};
use crate::{Result, StoreError};

impl WikiStore for SqliteStore {
    fn create_wiki(&self, id: &WikiId, pretty_name: &str) -> Result<Wiki> {
        validate_new_wiki(pretty_name)?;
        self.write(|tx| {
            let created_ms = now_ms();
            let inserted = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO wikis (id, pretty_name, created_ms) VALUES (?1, ?2, ?3)",
                )
                .db()?
                .execute(params![id.as_str(), pretty_name, created_ms])
                .db()?;
            if inserted == 0 {
                return Err(wiki_exists(id));
            }
            let (wiki, event) = created_event(id);
            tx.emit(wiki, event);
            Ok(Wiki {
                id: id.clone(),
                pretty_name: pretty_name.to_owned(),
                created: from_ms(created_ms),
            })
        })
    }

    fn list_wikis(&self) -> Result<Vec<Wiki>> {
        self.read(|conn| {
            let mut stmt = conn
                .prepare_cached("SELECT id, pretty_name, created_ms FROM wikis ORDER BY id")
                .db()?;
            let rows = stmt.query_map([], wiki_row).db()?;
            let mut wikis = Vec::new();
            for row in rows {
                wikis.push(row.db()??);
            }
            Ok(wikis)
        })
    }

    fn wiki(&self, id: &WikiId) -> Result<Option<Wiki>> {
        self.read(|conn| {
            conn.prepare_cached("SELECT id, pretty_name, created_ms FROM wikis WHERE id = ?1")
                .db()?
                .query_row([id.as_str()], wiki_row)
                .optional()
                .db()?
                .transpose()
        })
    }

    fn delete_wiki(&self, id: &WikiId) -> Result<()> {
        validate_delete(id)?;
        self.write(|tx| {
            let deleted = tx
                .prepare_cached("DELETE FROM wikis WHERE id = ?1")
                .db()?
                .execute([id.as_str()])
                .db()?;
            if deleted == 0 {
                return Err(unknown_wiki(id));
            }
            let (wiki, event) = deleted_event(id);
            tx.emit(wiki, event);
            Ok(())
        })
    }
}

/// Reads a wiki row; an id that no longer validates is reported, not trusted.
fn wiki_row(row: &Row<'_>) -> rusqlite::Result<Result<Wiki>> {
    let id: String = row.get(0)?;
    let pretty_name: String = row.get(1)?;
    let created_ms: i64 = row.get(2)?;
    Ok(WikiId::new(&id)
        .map(|id| Wiki {
            id,
            pretty_name,
            created: from_ms(created_ms),
        })
        .map_err(StoreError::from))
}
