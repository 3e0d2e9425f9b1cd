//! The page hierarchy.

use crate::Result;
use crate::model::hierarchy::{ChildrenPage, SpaceSummary, TreeNode};
use crate::model::wiki::WikiId;
use crate::reference::{DocumentReference, SpacePath};

/// Top-level spaces and children of a page, for tree views. Counts and listings cover default
/// rows only (a translation is not another page). Hidden pages are left out unless asked for.
pub trait HierarchyStore {
    /// The top-level spaces of a wiki with their page counts, sorted by name. A space with only
    /// hidden pages is listed only when `include_hidden`. Not authorized: the counts are the
    /// space's, not one caller's view of it; a caller shows a space only after checking rows of
    /// it (see [`HierarchyStore::pages`]).
    fn top_level_spaces(&self, wiki: &WikiId, include_hidden: bool) -> Result<Vec<SpaceSummary>>;

    /// The direct children of a page that the caller may view, sorted by name: for a space home
    /// (`Space.WebHome`) the other pages of the space and its nested spaces (as their home
    /// pages); a terminal page has none.
    ///
    /// `authorize` answers for one page whether the caller may view it; it is asked before a
    /// row is listed, counted, paged or used to build a node, so a denied page leaves no trace.
    /// A nested space is listed only when the caller may view a page in it or below it, and
    /// what its node says (title, hidden flag, last update) comes from those pages alone: its
    /// home page's title only when that page is viewable. `offset`, `limit` and the total apply
    /// to the authorized children.
    fn children(
        &self,
        parent: &DocumentReference,
        include_hidden: bool,
        offset: usize,
        limit: usize,
        authorize: &mut dyn FnMut(&DocumentReference) -> bool,
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
