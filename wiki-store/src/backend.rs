//! The one trait a storage engine implements: how to run a read, a snapshot and a write, and
//! the connection and transaction types whose row traits (declared in [`crate::flow`]) hold its
//! SQL. Every public store trait ([`crate::api`]) is implemented once, in [`crate::flow`], for
//! every `B: Backend`; so is each check of the input, which no backend can forget.
//!
//! The shape is sqlx's `Database`: the engine names its types once and everything above is
//! written against them, monomorphized per backend (no virtual call or allocation per row).

use std::sync::Arc;

use crate::Result;
use crate::config::StoreConfig;
use crate::flow::admin::{AdminReads, AdminRows};
use crate::flow::attachments::{AttachmentReads, AttachmentRows};
use crate::flow::changes::ChangeReads;
use crate::flow::config::{ConfigReads, ConfigRows};
use crate::flow::documents::{DocumentReads, DocumentRows, RevisionReads};
use crate::flow::hierarchy::HierarchyReads;
use crate::flow::identities::{IdentityReads, IdentityRows};
use crate::flow::leases::LeaseRows;
use crate::flow::links::LinkReads;
use crate::flow::objects::{ObjectReads, ObjectRows};
use crate::flow::owner::OwnerRows;
use crate::flow::rights::{RightsReads, RightsRows};
use crate::flow::search::SearchReads;
use crate::flow::secrets::SecretRows;
use crate::flow::tokens::{TokenReads, TokenRows};
use crate::flow::trash::{TrashReads, TrashRows};
use crate::flow::users::{AccountReads, AccountRows};
use crate::flow::vectors::{VectorReads, VectorRows};
use crate::flow::wikis::{WikiReads, WikiRows};
use crate::listeners::Listeners;

/// A storage engine under the store's API.
///
/// What a method may count on, whatever the engine: [`Backend::read`] and
/// [`Backend::snapshot`] may run their closure again on a fresh connection after losing one
/// (PostgreSQL), and [`Backend::write`] after a conflict with a concurrent writer, so a closure
/// re-reads what it needs and keeps no effect outside the transaction. A write's events reach
/// [`Backend::listeners`] only once it commits.
pub(crate) trait Backend: Send + Sync {
    /// A connection that reads, as a read or a snapshot hands it out.
    type Read<'c>: AccountReads
        + AdminReads
        + AttachmentReads
        + ChangeReads
        + ConfigReads
        + DocumentReads
        + HierarchyReads
        + IdentityReads
        + LinkReads
        + ObjectReads
        + RevisionReads
        + RightsReads
        + SearchReads
        + TokenReads
        + TrashReads
        + VectorReads
        + WikiReads;

    /// A write in progress: one transaction, its queued events and its change-sequence bump.
    type Write<'t>: AccountRows
        + AdminRows
        + AttachmentRows
        + ConfigRows
        + DocumentRows
        + IdentityRows
        + LeaseRows
        + ObjectRows
        + OwnerRows
        + RightsRows
        + SecretRows
        + TokenRows
        + TrashRows
        + VectorRows
        + WikiRows;

    /// The configuration the store was opened with.
    fn config(&self) -> &StoreConfig;

    /// Now by the store's clock ([`StoreConfig::clock`]), in stored form: what a read decides
    /// lapsed by, and what a check before a write compares with.
    fn now_ms(&self) -> i64 {
        self.config().clock.now_ms()
    }

    /// Runs `f` where each statement sees a consistent state on its own (a read of one
    /// statement; SQLite runs every read in a read transaction anyway).
    fn read<T>(&self, f: impl FnMut(&mut Self::Read<'_>) -> Result<T>) -> Result<T>;

    /// Runs `f` in one read snapshot: all of its statements see the same committed state.
    fn snapshot<T>(&self, f: impl FnMut(&mut Self::Read<'_>) -> Result<T>) -> Result<T>;

    /// Runs `f` in one write transaction; an `Err` rolls everything back.
    fn write<T>(&self, f: impl FnMut(&mut Self::Write<'_>) -> Result<T>) -> Result<T>;

    /// This process's change listeners, shared by the store's clones.
    fn listeners(&self) -> &Arc<Listeners>;

    /// The engine's cheap probe for commits ([`crate::ChangeFeed::commit_marker`]).
    fn commit_marker(&self) -> Result<u64>;

    /// The connections' use ([`crate::ChangeFeed::pool_stats`]).
    fn pool_stats(&self) -> crate::PoolStats;
}
