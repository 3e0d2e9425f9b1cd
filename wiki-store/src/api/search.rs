//! Full-text search.

/// Full-text search and browsing with filters, authorized before counting and paging.
pub trait SearchStore {}
