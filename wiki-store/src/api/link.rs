//! Links between documents.

/// Outgoing links and backlinks, extracted from content on save.
pub trait LinkStore {}
