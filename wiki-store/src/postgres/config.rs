//! The PostgreSQL statements behind [`crate::ConfigStore`]
//! ([`crate::flow::config`]).

use crate::Result;
use crate::flow::config::{ConfigReads, ConfigRows};
use crate::postgres::convert::RowExt;
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::stored::object_number;

impl ConfigRows for WriteTx<'_> {
    fn first_object_number(&mut self, document_id: i64, class: &str) -> Result<Option<u32>> {
        self.query_one(
            "SELECT min(number) FROM objects WHERE document_id = $1 AND class = $2",
            &[&document_id, &class],
        )?
        .col::<Option<i64>>(0)?
        .map(object_number)
        .transpose()
    }
}

impl ConfigReads for Conn {
    fn first_object_id(&mut self, document_id: i64, class: &str) -> Result<Option<i64>> {
        self.query_opt(
            "SELECT id FROM objects WHERE document_id = $1 AND class = $2 ORDER BY number LIMIT 1",
            &[&document_id, &class],
        )?
        .map(|row| row.col(0))
        .transpose()
    }
}
