//! Write transactions: one `IMMEDIATE` transaction per write, the change sequence advanced on
//! commit, events published after it.

use std::ops::Deref;

use rusqlite::{Connection, Transaction, TransactionBehavior};

use crate::Result;
use crate::flow;
use crate::flow::structure::{Revised, Unrecorded};
use crate::model::change::ChangeKind;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::sqlite::changes::bump_change_seq;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::structure;

/// A write in progress. Derefs to the connection for statements.
///
/// Unless [`WriteTx::nothing_changed`] is called, committing advances the change sequence: a
/// forgotten bump would leave other processes' caches (rights, configuration) stale, a spurious
/// one only costs a reload.
///
/// Every revision of a default row written here gets its objects and attachments recorded
/// ([`crate::structure`]) once they are final: just before the commit, or just before the same
/// transaction writes the row's next revision.
pub(crate) struct WriteTx<'c> {
    tx: Transaction<'c>,
    events: Vec<(WikiId, ChangeKind)>,
    changed: bool,
    unrecorded: Unrecorded,
}

impl WriteTx<'_> {
    /// Queues an event for the listeners, published once the transaction commits.
    pub(crate) fn emit(&mut self, wiki: WikiId, kind: ChangeKind) {
        self.events.push((wiki, kind));
    }

    /// Declares that this transaction wrote nothing (a no-op save), so the sequence stays put.
    pub(crate) fn nothing_changed(&mut self) {
        self.changed = false;
    }

    /// Called before default row `document_id` gets a new revision: records the structure its
    /// previous revision in this transaction (if any) left.
    pub(crate) fn settle(&mut self, document_id: i64) -> Result<()> {
        let settled = self.unrecorded.settle(document_id);
        record(&self.tx, settled)
    }

    /// Called when default row `document_id` of `wiki` got revision `version`, so its structure
    /// is recorded once final.
    pub(crate) fn revised(&mut self, wiki: WikiId, document_id: i64, version: Version) {
        self.unrecorded.revised(wiki, document_id, version);
    }
}

impl flow::Transaction for WriteTx<'_> {
    fn emit(&mut self, wiki: WikiId, kind: ChangeKind) {
        WriteTx::emit(self, wiki, kind);
    }

    fn nothing_changed(&mut self) {
        WriteTx::nothing_changed(self);
    }
}

fn record(conn: &Connection, revisions: Vec<Revised>) -> Result<()> {
    for (wiki, document_id, version) in revisions {
        structure::record(conn, &wiki, document_id, version)?;
    }
    Ok(())
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
            events: Vec::new(),
            changed: true,
            unrecorded: Unrecorded::default(),
        })
    }

    /// Records what is still unrecorded, advances the change sequence unless nothing changed,
    /// and commits, unless an interrupt ([`crate::interrupt`]) came first: dropping the
    /// transaction rolls everything back. The sequence value (0 when nothing changed) and the
    /// queued events, to publish.
    pub(super) fn commit(self) -> Result<(u64, Vec<(WikiId, ChangeKind)>)> {
        let WriteTx {
            tx,
            events,
            changed,
            mut unrecorded,
        } = self;
        record(&tx, unrecorded.take())?;
        let seq = if changed { bump_change_seq(&tx)? } else { 0 };
        crate::interrupt::check()?;
        tx.commit().db()?;
        Ok((seq, events))
    }
}
