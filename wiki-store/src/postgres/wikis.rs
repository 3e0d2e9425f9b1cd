//! The statements behind [`crate::WikiStore`].

use postgres::Row;

use crate::Result;
use crate::flow::wikis::{WikiReads, WikiRows};
use crate::model::wiki::{Wiki, WikiId};
use crate::postgres::convert::RowExt;
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::stored::{self, from_ms};

impl WikiRows for WriteTx<'_> {
    fn insert_wiki(&mut self, id: &WikiId, pretty_name: &str, created_ms: i64) -> Result<bool> {
        let inserted = self.execute(
            "INSERT INTO wikis (id, pretty_name, created_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            &[&id.as_str(), &pretty_name, &created_ms],
        )?;
        Ok(inserted > 0)
    }

    fn delete_wiki(&mut self, id: &WikiId) -> Result<bool> {
        Ok(self.execute("DELETE FROM wikis WHERE id = $1", &[&id.as_str()])? > 0)
    }
}

impl WikiReads for Conn {
    fn wikis(&mut self) -> Result<Vec<Wiki>> {
        self.query(
            "SELECT id, pretty_name, created_ms FROM wikis ORDER BY id",
            &[],
        )?
        .iter()
        .map(wiki_row)
        .collect()
    }

    fn wiki(&mut self, id: &WikiId) -> Result<Option<Wiki>> {
        self.query_opt(
            "SELECT id, pretty_name, created_ms FROM wikis WHERE id = $1",
            &[&id.as_str()],
        )?
        .as_ref()
        .map(wiki_row)
        .transpose()
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
