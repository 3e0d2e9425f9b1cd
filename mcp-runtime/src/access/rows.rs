//! The row door (facts §4.4): the per-row check of hierarchy and object queries.
//!
//! A query over many documents (children of a page, objects of a class) authorizes every row
//! BEFORE counting and paging, so a denied row leaves no countable trace. The check is the space
//! filter, then the view right; rows of a wiki this endpoint cannot reach never pass.

use wiki_store::reference::DocumentReference;
use wiki_store::rights::Right;

use super::Doors;

impl Doors {
    /// Whether a row of `reference` may be shown to the caller: reach, space filter, then view.
    /// Pure and cheap (the rights snapshot is in memory): call it for every candidate.
    pub fn row_visible(&self, reference: &DocumentReference) -> bool {
        self.can_reach(reference.wiki())
            && self.filter.allows(reference)
            && self.has_right(reference, Right::View)
    }
}
