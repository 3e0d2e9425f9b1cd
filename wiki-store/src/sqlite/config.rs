//! The SQLite statements behind [`crate::ConfigStore`]
//! ([`crate::flow::config`]).

use rusqlite::{Connection, OptionalExtension, params};

use crate::Result;
use crate::flow::config::{ConfigReads, ConfigRows};
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::write::WriteTx;
use crate::stored::corrupt;

impl ConfigRows for WriteTx<'_> {
    fn first_object_number(&mut self, document_id: i64, class: &str) -> Result<Option<u32>> {
        let number: Option<i64> = self
            .prepare_cached("SELECT min(number) FROM objects WHERE document_id = ?1 AND class = ?2")
            .db()?
            .query_row(params![document_id, class], |row| row.get(0))
            .db()?;
        number
            .map(|n| u32::try_from(n).map_err(|_| corrupt("configuration object number")))
            .transpose()
    }
}

impl ConfigReads for &Connection {
    fn first_object_id(&mut self, document_id: i64, class: &str) -> Result<Option<i64>> {
        self.prepare_cached(
            "SELECT id FROM objects WHERE document_id = ?1 AND class = ?2 ORDER BY number LIMIT 1",
        )
        .db()?
        .query_row(params![document_id, class], |row| row.get(0))
        .optional()
        .db()
    }
}
