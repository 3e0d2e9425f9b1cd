//! The farm of wikis.

use postgres::Row;

use crate::Result;
use crate::api::WikiStore;
use crate::model::wiki::{Wiki, WikiId};
use crate::plan::wiki::{
    created_event, deleted_event, unknown_wiki, validate_delete, validate_new_wiki, wiki_exists,
};
use crate::postgres::PostgresStore;
use crate::postgres::convert::RowExt;
use crate::stored::{self, from_ms, now_ms};

impl WikiStore for PostgresStore {
    fn create_wiki(&self, id: &WikiId, pretty_name: &str) -> Result<Wiki> {
        validate_new_wiki(pretty_name)?;
        self.write(|tx| {
            let created_ms = now_ms();
            let inserted = tx.execute(
                "INSERT INTO wikis (id, pretty_name, created_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                &[&id.as_str(), &pretty_name, &created_ms],
            )?;
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
            conn.query(
                "SELECT id, pretty_name, created_ms FROM wikis ORDER BY id",
                &[],
            )?
            .iter()
            .map(wiki_row)
            .collect()
        })
    }

    fn wiki(&self, id: &WikiId) -> Result<Option<Wiki>> {
        self.read(|conn| {
            conn.query_opt(
                "SELECT id, pretty_name, created_ms FROM wikis WHERE id = $1",
                &[&id.as_str()],
            )?
            .as_ref()
            .map(wiki_row)
            .transpose()
        })
    }

    fn delete_wiki(&self, id: &WikiId) -> Result<()> {
        validate_delete(id)?;
        self.write(|tx| {
            let deleted = tx.execute("DELETE FROM wikis WHERE id = $1", &[&id.as_str()])?;
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
fn wiki_row(row: &Row) -> Result<Wiki> {
    Ok(Wiki {
        id: stored::wiki(row.col(0)?)?,
        pretty_name: row.col(1)?,
        created: from_ms(row.col(2)?),
    })
}
