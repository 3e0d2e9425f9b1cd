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

use crate::model::change::ChangeKind;
use crate::model::wiki::WikiId;

/// A backend's write transaction, as every flow's row trait builds on it.
pub(crate) trait Transaction {
    /// Queues an event for the listeners, published once the transaction commits.
    fn emit(&mut self, wiki: WikiId, kind: ChangeKind);

    /// Declares that the transaction wrote nothing, so the change sequence stays put.
    fn nothing_changed(&mut self);
}
