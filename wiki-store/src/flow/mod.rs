//! The backend-neutral half of the store's methods: the order in which a method reads and
//! writes, and the assembly of what it read into the model.
//!
//! [`crate::plan`] decides (pure functions over borrowed rows); this module drives: it asks a
//! backend for rows, hands them to the planner and tells the backend what to write. Each file
//! declares, for one aggregate, a trait of "the rows a backend can fetch and write" (implemented
//! by each backend's write transaction or read connection with its own SQL and row decoding,
//! nothing else) and implements the store's methods once over it. So the sequence of statements
//! a save makes, which rows it locks first, when a write is a no-op and how rows become a
//! [`crate::model`] value cannot drift apart between SQLite and PostgreSQL.
//!
//! Where the backends read the same thing differently, the trait asks for the result, not the
//! statements: PostgreSQL finds a document, its default language and its translations in one
//! statement where SQLite runs three, and each keeps its way (so neither backend pays a round
//! trip the other needs). Flows are generic, not `dyn`: each backend gets its own monomorphized
//! copy, with no virtual call or extra allocation per row.
//!
//! What stays in a backend: which transaction a method runs in (SQLite's read transaction,
//! PostgreSQL's snapshot or single statement), SQL, row decoding and row locks. A trait method
//! that locks on PostgreSQL (`FOR UPDATE`, `FOR SHARE`) is a plain read on SQLite, whose write
//! transaction already excludes every other writer.

pub(crate) mod admin;
pub(crate) mod attachments;
pub(crate) mod changes;
pub(crate) mod config;
pub(crate) mod documents;
pub(crate) mod leases;
pub(crate) mod objects;
pub(crate) mod owner;
pub(crate) mod rights;
pub(crate) mod structure;
pub(crate) mod tokens;
pub(crate) mod trash;
pub(crate) mod users;

use crate::model::change::ChangeKind;
use crate::model::wiki::WikiId;

/// A backend's write transaction, as every flow's row trait builds on it.
pub(crate) trait Transaction {
    /// Queues an event for the listeners, published once the transaction commits.
    fn emit(&mut self, wiki: WikiId, kind: ChangeKind);

    /// Declares that the transaction wrote nothing, so the change sequence stays put.
    fn nothing_changed(&mut self);
}
