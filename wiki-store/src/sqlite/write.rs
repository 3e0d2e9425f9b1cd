//! Write transactions: one `IMMEDIATE` transaction per write, the change sequence advanced on
//! commit, events published after it.

use std::ops::Deref;

use rusqlite::{Connection, Transaction, TransactionBehavior};

use crate::Result;
use crate::model::change::ChangeKind;
use crate::model::wiki::WikiId;
use crate::sqlite::SqliteStore;
use crate::sqlite::changes::bump_change_seq;
use crate::sqlite::convert::DbResultExt;

/// A write in progress. Derefs to the connection for statements.
///
/// Unless [`WriteTx::nothing_changed`] is called, committing advances the change sequence: a
/// forgotten bump would leave other processes' caches (rights, configuration) stale, a spurious
/// one only costs a reload.
pub(crate) struct WriteTx<'c> {
    tx: Transaction<'c>,
    events: Vec<(WikiId, ChangeKind)>,
    changed: bool,
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
}

impl Deref for WriteTx<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        &self.tx
    }
}

impl SqliteStore {
    /// Runs `f` in one `IMMEDIATE` write transaction. An `Err` from `f` rolls everything back.
    pub(crate) fn write<T>(&self, f: impl FnOnce(&mut WriteTx<'_>) -> Result<T>) -> Result<T> {
        let (value, seq, events) = {
            let mut conn = self.pool().writer();
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .db()?;
            let mut write = WriteTx {
                tx,
                events: Vec::new(),
                changed: true,
            };
            let value = f(&mut write)?;
            let WriteTx {
                tx,
                events,
                changed,
            } = write;
            let seq = if changed { bump_change_seq(&tx)? } else { 0 };
            tx.commit().db()?;
            (value, seq, events)
        };
        self.listeners().publish_committed(seq, events);
        Ok(value)
    }
}
