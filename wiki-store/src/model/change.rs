//! Change events and the change sequence.

use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::reference::DocumentReference;

/// Something that changed, published to subscribers after its transaction committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeEvent {
    /// The change sequence value the committing transaction advanced to.
    pub seq: u64,
    /// The wiki the change happened in.
    pub wiki: WikiId,
    /// What changed.
    pub kind: ChangeKind,
}

/// The kinds of change.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChangeKind {
    /// A document row was saved (created or updated; object and attachment writes save the document).
    DocumentSaved {
        /// The document.
        reference: DocumentReference,
        /// The row: `None` for the default row.
        locale: Option<Locale>,
        /// Its new version.
        version: Version,
    },
    /// A document was deleted (all its rows).
    DocumentDeleted {
        /// The document.
        reference: DocumentReference,
    },
    /// A wiki was created.
    WikiCreated,
    /// A wiki was deleted, with everything in it.
    WikiDeleted,
    /// Rights rules of the event's wiki changed: rights snapshots are stale.
    RightsChanged,
    /// Users, groups, memberships or API tokens changed (farm-wide; the event's wiki is the main
    /// wiki): rights snapshots and token resolutions are stale.
    AccountsChanged,
}
