//! Write transactions: one `READ COMMITTED` transaction per write, rows locked where a plan
//! depends on them, retried from the start when it collides with a concurrent writer, the change
//! sequence advanced and notified as its last statement, events published after the commit.
//!
//! Why row locks and not `SERIALIZABLE`: every write advances the one `change_seq` row, so under
//! serializable isolation any two overlapping writes would conflict on it and one would be
//! retried, however unrelated the documents. Here a write locks what its plan reads (a
//! document's default row `FOR UPDATE` before reading anything hanging on it, the subjects and
//! wikis it references `FOR SHARE`), so writers of one document queue behind each other and see
//! each other's commits (the compare-and-set then refuses the stale ones, as on SQLite), writers
//! of different documents run side by side, and `change_seq` is locked only from its update to
//! the commit. What locks cannot order (two creations of one row, a deadlock between batches,
//! a lock wait past `lock_timeout`) fails with a conflict, and the whole write runs again from
//! its first read, at most [`MAX_ATTEMPTS`] times, then [`StoreError::ConcurrentSave`].

use std::ops::{Deref, DerefMut};
use std::time::Duration;

use rand::RngExt;

use crate::clock::Clock;
use crate::flow::{Pending, Transaction};
use crate::model::change::ChangeKind;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::postgres::convert::{RowExt, is_conflict, unsigned};
use crate::postgres::documents::version_columns;
use crate::postgres::pool::{Conn, Pool};
use crate::{Result, StoreError};

/// How many times a write is attempted before it is given up to concurrent writers.
pub(crate) const MAX_ATTEMPTS: u32 = 8;

/// The channel every commit notifies with its new change sequence value (a macro, so the
/// statement below is one constant).
macro_rules! changes_channel {
    () => {
        "wiki_mcp_changes"
    };
}

/// The channel every commit notifies with its new change sequence value.
pub(crate) const CHANGES_CHANNEL: &str = changes_channel!();

/// The channel every vector write notifies with its new vector sequence value (a macro, so the
/// statement below is one constant).
macro_rules! vectors_channel {
    () => {
        "wiki_mcp_vectors"
    };
}

/// The channel every vector write notifies with its new vector sequence value.
pub(crate) const VECTORS_CHANNEL: &str = vectors_channel!();

/// Advances the vector sequence and notifies the new value, in one statement. The row stays
/// locked to the commit, so vector writes commit in the order of their values.
pub(crate) const BUMP_VECTOR_SEQ: &str = concat!(
    "WITH bumped AS (UPDATE vector_seq SET value = value + 1 WHERE id = 1 RETURNING value) ",
    "SELECT bumped.value FROM bumped CROSS JOIN LATERAL pg_notify('",
    vectors_channel!(),
    "', bumped.value::text) AS notified"
);

/// Advances the sequence and notifies the new value, in one statement.
const BUMP_CHANGE_SEQ: &str = concat!(
    "WITH bumped AS (UPDATE change_seq SET value = value + 1 WHERE id = 1 RETURNING value) ",
    "SELECT bumped.value FROM bumped CROSS JOIN LATERAL pg_notify('",
    changes_channel!(),
    "', bumped.value::text) AS notified"
);

/// A write in progress. Derefs to the connection for statements. Committing advances the change
/// sequence and notifies it unless the write changed nothing ([`Pending`]).
pub(crate) struct WriteTx<'c> {
    conn: &'c mut Conn,
    pending: Pending,
    /// The vector sequence value this write advanced to, for the feed once it commits.
    vectors: Option<u64>,
}

impl WriteTx<'_> {
    /// Called when this write advanced the vector sequence to `seq`: the feed learns it once
    /// the write commits, so this process's commit marker moves before the write returns.
    pub(crate) fn vectors_written(&mut self, seq: u64) {
        self.vectors = Some(seq);
    }
}

impl Transaction for WriteTx<'_> {
    type Reads = Conn;

    fn reads(&mut self) -> &mut Conn {
        self.conn
    }

    fn pending(&mut self) -> &mut Pending {
        &mut self.pending
    }

    fn set_structure(&mut self, document_id: i64, version: Version, structure: &str) -> Result<()> {
        let (major, minor) = version_columns(version);
        self.conn.execute(
            "UPDATE revisions SET structure = $4 WHERE document_id = $1 AND major = $2 AND minor = $3",
            &[&document_id, &major, &minor, &structure],
        )?;
        Ok(())
    }
}

impl Deref for WriteTx<'_> {
    type Target = Conn;

    fn deref(&self) -> &Conn {
        self.conn
    }
}

impl DerefMut for WriteTx<'_> {
    fn deref_mut(&mut self) -> &mut Conn {
        self.conn
    }
}

/// How one attempt ended, when it did not commit.
pub(super) enum Failed {
    /// A conflict with a concurrent writer, or a dead pooled connection: run it again.
    Retry(StoreError),
    /// Anything else: the write's answer.
    Fail(StoreError),
}

/// What a committed attempt leaves: the value, the change sequence it advanced to (none when it
/// changed nothing), the vector sequence likewise, and its queued events.
pub(super) type Committed<T> = (T, Option<u64>, Option<u64>, Vec<(WikiId, ChangeKind)>);

/// One attempt of a write: a `READ COMMITTED` transaction running `f`, then the structure
/// records and the change sequence, then the commit (unless an interrupt came first). It
/// writes at `clock`'s time as the transaction begins.
pub(super) fn attempt<T>(
    pool: &Pool,
    clock: &Clock,
    f: &mut impl FnMut(&mut WriteTx<'_>) -> Result<T>,
) -> std::result::Result<Committed<T>, Failed> {
    let mut conn = pool.get().map_err(Failed::Fail)?;
    if let Err(error) = conn.begin("ISOLATION LEVEL READ COMMITTED") {
        // A pooled connection that died while idle fails on its first statement, before
        // anything was done: the others are likely dead too, and a fresh one will do.
        if matches!(error, StoreError::Unavailable(_)) && conn.reused() {
            drop(conn);
            pool.discard_idle();
            return Err(Failed::Retry(error));
        }
        return Err(Failed::Fail(error));
    }
    let mut tx = WriteTx {
        conn: &mut conn,
        pending: Pending::starting(clock),
        vectors: None,
    };
    let outcome = f(&mut tx).and_then(|value| {
        let unrecorded = tx.pending.unrecorded();
        tx.record_structures(unrecorded)?;
        Ok(value)
    });
    let WriteTx {
        conn: _,
        pending,
        vectors,
    } = tx;
    let (changed, events) = pending.finish();
    let outcome = outcome.and_then(|value| {
        let seq = if changed {
            Some(bump_change_seq(&mut conn)?)
        } else {
            None
        };
        Ok((value, seq))
    });
    // Interrupted between statements: rolled back below, like any failure.
    let outcome = outcome.and_then(|done| crate::interrupt::check().map(|()| done));
    match outcome {
        Ok((value, seq)) => match conn.commit() {
            Ok(()) => Ok((value, seq, vectors, events)),
            Err(error) => Err(classify(error)),
        },
        Err(error) => {
            // The failure is the answer; a connection that cannot roll back is dropped.
            let _ = conn.rollback();
            if matches!(error, StoreError::Unavailable(_)) {
                pool.discard_idle();
            }
            Err(classify(error))
        }
    }
}

fn classify(error: StoreError) -> Failed {
    if is_conflict(&error) {
        Failed::Retry(error)
    } else {
        Failed::Fail(error)
    }
}

/// A short, growing, jittered pause before attempt `attempt + 1`, so colliding writers spread
/// out instead of colliding again.
pub(super) fn backoff(attempt: u32) -> Duration {
    let ceiling_ms = (2u64 << attempt.min(6)).min(100);
    Duration::from_millis(rand::rng().random_range(1..=ceiling_ms))
}

/// Advances the change sequence inside the caller's transaction, notifies it (delivered to
/// every listener when the transaction commits, never before) and returns the new value.
fn bump_change_seq(conn: &mut Conn) -> Result<u64> {
    let row = conn.query_one(BUMP_CHANGE_SEQ, &[])?;
    unsigned(row.col::<i64>(0)?, "change sequence")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_and_stays_short() {
        for attempt in 1..=MAX_ATTEMPTS {
            let pause = backoff(attempt);
            assert!(pause >= Duration::from_millis(1) && pause <= Duration::from_millis(100));
        }
    }
}
