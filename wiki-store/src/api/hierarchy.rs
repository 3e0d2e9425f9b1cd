//! The page hierarchy.

use crate::Result;
use crate::model::hierarchy::{ChildrenPage, SpaceSummary, TreeNode};
use crate::model::wiki::WikiId;
use crate::reference::{DocumentReference, SpacePath};

/// Top-level spaces and children of a page, for tree views. Counts and listings cover default
/// rows only (a translation is not another page). Hidden pages are left out unless asked for.
pub trait HierarchyStore {
    /// The top-level spaces of a wiki with their page counts, sorted by name. A space with only
    /// hidden pages is listed only when `include_hidden`.
    fn top_level_spaces(&self, wiki: &WikiId, include_hidden: bool) -> Result<Vec<SpaceSummary>>;

    /// The direct children of a page, sorted by name: for a space home (`Space.WebHome`) the
    /// other pages of the space and its nested spaces (as their home pages); a terminal page has
    /// none.
    fn children(
        &self,
        parent: &DocumentReference,
        include_hidden: bool,
        offset: usize,
        limit: usize,
    ) -> Result<ChildrenPage>;

    /// Pages of a wiki (optionally under a space, nested spaces included), sorted by reference,
    /// for callers that authorize and aggregate row by row.
    fn pages(
        &self,
        wiki: &WikiId,
        space: Option<&SpacePath>,
        include_hidden: bool,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<TreeNode>>;
}
