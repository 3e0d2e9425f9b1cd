//! Write transactions: one `IMMEDIATE` transaction per write, the change sequence advanced on
//! commit, events published after it.

use std::ops::Deref;

use rusqlite::{Connection, Transaction, TransactionBehavior, params};

use crate::Result;
use crate::clock::Clock;
use crate::flow::{self, Pending};
use crate::model::change::ChangeKind;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::sqlite::changes::bump_change_seq;
use crate::sqlite::convert::DbResultExt;

/// A write in progress. Derefs to the connection for statements.
pub(crate) struct WriteTx<'c> {
    tx: Transaction<'c>,
    /// The transaction's connection, as its reads take it.
    conn: &'c Connection,
    pending: Pending,
}

impl<'c> flow::Transaction for WriteTx<'c> {
    type Reads = &'c Connection;

    fn reads(&mut self) -> &mut &'c Connection {
        &mut self.conn
    }

    fn pending(&mut self) -> &mut Pending {
        &mut self.pending
    }

    fn set_structure(&mut self, document_id: i64, version: Version, structure: &str) -> Result<()> {
        self.prepare_cached(
            "UPDATE revisions SET structure = ?4 WHERE document_id = ?1 AND major = ?2 AND minor = ?3",
        )
        .db()?
        .execute(params![document_id, version.major, version.minor, structure])
        .db()?;
        Ok(())
    }
}

impl Deref for WriteTx<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        &self.tx
    }
}

impl<'c> WriteTx<'c> {
    /// Opens an `IMMEDIATE` transaction on the writer connection, which it holds exclusively
    /// (hence `&mut`) and shares between its statements and its reads; it writes at `clock`'s
    /// time once it holds the write lock.
    pub(super) fn begin(conn: &'c mut Connection, clock: &Clock) -> Result<Self> {
        let conn: &'c Connection = conn;
        let tx = Transaction::new_unchecked(conn, TransactionBehavior::Immediate).db()?;
        Ok(WriteTx {
            tx,
            conn,
            pending: Pending::starting(clock),
        })
    }

    /// Records what is still unrecorded, advances the change sequence unless nothing changed,
    /// and commits, unless an interrupt ([`crate::interrupt`]) came first: dropping the
    /// transaction rolls everything back. The sequence value (0 when nothing changed) and the
    /// queued events, to publish.
    pub(super) fn commit(mut self) -> Result<(u64, Vec<(WikiId, ChangeKind)>)> {
        let unrecorded = self.pending.unrecorded();
        flow::Transaction::record_structures(&mut self, unrecorded)?;
        let WriteTx { tx, pending, .. } = self;
        let (changed, events) = pending.finish();
        let seq = if changed { bump_change_seq(&tx)? } else { 0 };
        crate::interrupt::check()?;
        tx.commit().db()?;
        Ok((seq, events))
    }
}
