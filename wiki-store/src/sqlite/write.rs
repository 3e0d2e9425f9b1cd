//! Write transactions: one `IMMEDIATE` transaction per write, the change sequence advanced on
//! commit, events published after it.

use std::ops::Deref;

use rusqlite::{Connection, Transaction, TransactionBehavior};

use crate::Result;
use crate::flow::structure::Revised;
use crate::flow::{self, Pending};
use crate::model::change::ChangeKind;
use crate::model::wiki::WikiId;
use crate::sqlite::changes::bump_change_seq;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::structure;

/// A write in progress. Derefs to the connection for statements.
pub(crate) struct WriteTx<'c> {
    tx: Transaction<'c>,
    pending: Pending,
}

impl flow::Transaction for WriteTx<'_> {
    fn pending(&mut self) -> &mut Pending {
        &mut self.pending
    }

    fn record_structures(&mut self, revisions: Vec<Revised>) -> Result<()> {
        for (wiki, document_id, version) in revisions {
            structure::record(&self.tx, &wiki, document_id, version)?;
        }
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
    /// Opens an `IMMEDIATE` transaction on the writer connection.
    pub(super) fn begin(conn: &'c mut Connection) -> Result<Self> {
        Ok(WriteTx {
            tx: conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .db()?,
            pending: Pending::default(),
        })
    }

    /// Records what is still unrecorded, advances the change sequence unless nothing changed,
    /// and commits, unless an interrupt ([`crate::interrupt`]) came first: dropping the
    /// transaction rolls everything back. The sequence value (0 when nothing changed) and the
    /// queued events, to publish.
    pub(super) fn commit(mut self) -> Result<(u64, Vec<(WikiId, ChangeKind)>)> {
        let unrecorded = self.pending.unrecorded();
        flow::Transaction::record_structures(&mut self, unrecorded)?;
        let WriteTx { tx, pending } = self;
        let (changed, events) = pending.finish();
        let seq = if changed { bump_change_seq(&tx)? } else { 0 };
        crate::interrupt::check()?;
        tx.commit().db()?;
        Ok((seq, events))
    }
}
