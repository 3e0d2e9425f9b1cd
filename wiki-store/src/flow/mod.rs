//! The store's methods, written once: every public trait of [`crate::api`] is implemented here
//! for every [`crate::backend::Backend`], with the order in which a method reads and writes,
//! the input checks it makes before any transaction, and the assembly of what it read into the
//! model.
//!
//! [`crate::plan`] decides (pure functions over borrowed rows); this module drives: it asks a
//! backend for rows, hands them to the planner and tells the backend what to write. Each file
//! declares, for one aggregate, the row traits a backend implements with its own SQL and row
//! decoding (`…Reads` on its read connection, `…Rows` on its write transaction), so the
//! sequence of statements a save makes, which rows it locks first, when a write is a no-op and
//! how rows become a [`crate::model`] value cannot drift apart between SQLite and PostgreSQL.
//!
//! Where the backends read the same thing differently, a trait asks for the result, not the
//! statements: PostgreSQL finds a document, its default language and its translations in one
//! statement where SQLite runs three, and each keeps its way (so neither backend pays a round
//! trip the other needs). The implementations are generic, not `dyn`: each backend gets its own
//! monomorphized copy, with no virtual call or extra allocation per row. A row-trait method
//! that locks on PostgreSQL (`FOR UPDATE`, `FOR SHARE`) is a plain read on SQLite, whose write
//! transaction already excludes every other writer.

pub(crate) mod admin;
pub(crate) mod attachments;
pub(crate) mod changes;
pub(crate) mod config;
pub(crate) mod documents;
pub(crate) mod hierarchy;
pub(crate) mod identities;
pub(crate) mod leases;
pub(crate) mod links;
pub(crate) mod objects;
pub(crate) mod owner;
pub(crate) mod rights;
pub(crate) mod search;
pub(crate) mod secrets;
pub(crate) mod structure;
pub(crate) mod tokens;
pub(crate) mod trash;
pub(crate) mod users;
pub(crate) mod vectors;
pub(crate) mod wikis;

use crate::Result;
use crate::clock::Clock;
use crate::flow::attachments::AttachmentReads;
use crate::flow::objects::ObjectReads;
use crate::flow::structure::{Revised, Unrecorded};
use crate::flow::vectors::VectorReads;
use crate::model::change::ChangeKind;
use crate::model::version::Version;
use crate::model::wiki::WikiId;

/// What a write transaction carries besides its statements, the same on every backend: the
/// instant it writes at, the events it queued (published once it commits), whether it changed
/// anything, and the revisions whose structure ([`crate::structure`]) is still to record.
///
/// Unless the transaction says it changed nothing, committing advances the change sequence: a
/// forgotten bump would leave other processes' caches (rights, configuration) stale, a spurious
/// one only costs a reload.
#[derive(Debug)]
pub(crate) struct Pending {
    now_ms: i64,
    events: Vec<(WikiId, ChangeKind)>,
    unchanged: bool,
    unrecorded: Unrecorded,
}

impl Pending {
    /// The state of a transaction starting at `clock`'s current time: every instant it records
    /// (a save, a creation, a deletion) is that one.
    pub(crate) fn starting(clock: &Clock) -> Self {
        Pending {
            now_ms: clock.now_ms(),
            events: Vec::new(),
            unchanged: false,
            unrecorded: Unrecorded::default(),
        }
    }

    /// The revisions still to record, as the transaction is about to commit.
    pub(crate) fn unrecorded(&mut self) -> Vec<Revised> {
        self.unrecorded.take()
    }

    /// Whether committing advances the change sequence, and the events to publish after it.
    pub(crate) fn finish(self) -> (bool, Vec<(WikiId, ChangeKind)>) {
        (!self.unchanged, self.events)
    }
}

/// A backend's write transaction, as every flow's row trait builds on it.
pub(crate) trait Transaction {
    /// The backend's read statements, as this transaction's connection runs them: they see the
    /// transaction's own writes and lock nothing.
    type Reads: ObjectReads + AttachmentReads + VectorReads;

    /// This transaction's connection as a reader.
    fn reads(&mut self) -> &mut Self::Reads;

    /// The transaction's [`Pending`] state.
    fn pending(&mut self) -> &mut Pending;

    /// Stores `structure` (encoded) on revision `version` of the default row `document_id`.
    fn set_structure(&mut self, document_id: i64, version: Version, structure: &str) -> Result<()>;

    /// Records on each of `revisions` its objects and attachments as the transaction sees them
    /// now ([`crate::flow::structure::current`]).
    fn record_structures(&mut self, revisions: Vec<Revised>) -> Result<()> {
        for (wiki, document_id, version) in revisions {
            let structure = structure::current(self.reads(), &wiki, document_id)?;
            self.set_structure(document_id, version, &crate::structure::encode(&structure)?)?;
        }
        Ok(())
    }

    /// The instant the transaction writes at, by the store's clock, in stored form.
    fn now_ms(&mut self) -> i64 {
        self.pending().now_ms
    }

    /// Queues an event for the listeners, published once the transaction commits.
    fn emit(&mut self, wiki: WikiId, kind: ChangeKind) {
        self.pending().events.push((wiki, kind));
    }

    /// Declares that the transaction wrote nothing, so the change sequence stays put.
    fn nothing_changed(&mut self) {
        self.pending().unchanged = true;
    }

    /// Called before default row `document_id` gets a new revision: records the structure its
    /// previous revision in this transaction (if any) left. A revision is recorded once its
    /// structure is final: just before the commit, or just before the same transaction writes
    /// the row's next revision (the owner's touch inserts a revision before the objects and
    /// attachments it is about change).
    fn settle(&mut self, document_id: i64) -> Result<()> {
        let settled = self.pending().unrecorded.settle(document_id);
        self.record_structures(settled)
    }

    /// Called when default row `document_id` of `wiki` got revision `version`.
    fn revised(&mut self, wiki: WikiId, document_id: i64, version: Version) {
        self.pending()
            .unrecorded
            .revised(wiki, document_id, version);
    }
}
