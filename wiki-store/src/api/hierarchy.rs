//! The page hierarchy.

/// Top-level spaces and children of a page, for tree views.
pub trait HierarchyStore {}
