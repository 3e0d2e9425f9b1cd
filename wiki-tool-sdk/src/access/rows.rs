//! The row door: the per-row check of hierarchy and object queries.
//!
//! A query over many documents (children of a page, objects of a class) authorizes every row
//! BEFORE counting and paging, so a denied row leaves no countable trace. The check is the space
//! filter, then the view right; rows of a wiki this endpoint cannot reach never pass.

use wiki_store::model::object::ObjectPage;
use wiki_store::model::wiki::WikiId;
use wiki_store::objects::query::ObjectQuery;
use wiki_store::reference::DocumentReference;
use wiki_store::rights::Right;

use super::Doors;
use mcp_runtime::prelude::{ScanSignals, ToolError};

impl Doors {
    /// Whether a row of `reference` may be shown to the caller: reach, space filter, then view.
    /// Pure and cheap (the rights snapshot is in memory, no store call): call it for every
    /// candidate, including from inside a store query that holds a connection.
    pub fn row_visible(&self, reference: &DocumentReference) -> bool {
        self.can_reach(reference.wiki())
            && self.filter.allows(reference)
            && self.has_right(reference, Right::View)
    }

    /// Objects of a class in `wiki` (reach checked first), each row through
    /// [`Doors::row_visible`] before it is counted or paged; off the async workers. Each row
    /// authorized is a step of `scan` (progress; once the call is cancelled, every further row
    /// is refused, so the scan ends at once with nothing counted, and is never read).
    ///
    /// The outer error is the door's (reach refused); the inner result is the store's, left to
    /// the tool to word (a query naming an unknown field deserves its own message, not the
    /// generic "Could not …").
    pub async fn query_objects(
        &self,
        wiki: WikiId,
        query: ObjectQuery,
        offset: usize,
        limit: usize,
        mut scan: ScanSignals,
    ) -> Result<wiki_store::Result<ObjectPage>, ToolError> {
        self.check_reach(&wiki)?;
        let doors = self.clone();
        self.with_store(move |store| {
            let page = store.query_objects(&wiki, &query, offset, limit, &mut |reference| {
                scan.step() && doors.row_visible(reference)
            });
            scan.finish();
            page
        })
        .await
    }
}
