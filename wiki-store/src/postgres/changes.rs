//! The change sequence as a read: the commit marker is the feed's in-memory value (see
//! [`crate::postgres::feed`]).

use crate::Result;
use crate::flow::changes::ChangeReads;
use crate::postgres::convert::{RowExt, unsigned};
use crate::postgres::pool::Conn;

impl ChangeReads for Conn {
    fn change_seq(&mut self) -> Result<u64> {
        let row = self.query_one("SELECT value FROM change_seq WHERE id = 1", &[])?;
        unsigned(row.col::<i64>(0)?, "change sequence")
    }
}
