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
use crate::sqlite::SqliteStore;
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

impl SqliteStore {
    /// Runs `f` in one `IMMEDIATE` write transaction. An `Err` from `f` rolls everything back,
    /// and so does an interrupt ([`crate::interrupt`]) that comes before the commit.
    pub(crate) fn write<T>(&self, f: impl FnOnce(&mut WriteTx<'_>) -> Result<T>) -> Result<T> {
        let (value, seq, events) = {
            let mut conn = self.pool().writer();
            // Declared after the guard, so it is withdrawn before the writer is released.
            let handle = conn.get_interrupt_handle();
            let _interrupt = crate::interrupt::register(move || move || handle.interrupt())?;
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .db()?;
            let mut write = WriteTx {
                tx,
                events: Vec::new(),
                changed: true,
                unrecorded: Unrecorded::default(),
            };
            let value = f(&mut write)?;
            let WriteTx {
                tx,
                events,
                changed,
                mut unrecorded,
            } = write;
            record(&tx, unrecorded.take())?;
            let seq = if changed { bump_change_seq(&tx)? } else { 0 };
            // Interrupted between statements: dropping `tx` rolls everything back.
            crate::interrupt::check()?;
            tx.commit().db()?;
            (value, seq, events)
        };
        self.listeners().publish_committed(seq, events);
        Ok(value)
    }
}
