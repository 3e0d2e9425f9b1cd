//! The search door: full-text searches with the caller's filters applied before
//! counting and paging.
//!
//! The store's search calls a predicate per candidate and counts only what it accepts; this door
//! supplies that predicate (reach, space filter, view right) and the wiki scope
//! ([`Doors::search_wikis`]), so every search tool applies the same filters.

use wiki_store::model::search::{SearchCandidate, SearchQuery, SearchResults};

use super::{Doors, store_failure};
use mcp_runtime::prelude::ToolError;

impl Doors {
    /// The per-candidate predicate to hand to the store's search.
    pub fn search_predicate(&self) -> impl FnMut(&SearchCandidate) -> bool + '_ {
        |candidate| self.row_visible(&candidate.reference)
    }

    /// Runs `query` through the store with [`Doors::search_predicate`], off the async workers.
    /// The caller sets the wiki scope from [`Doors::search_wikis`].
    pub async fn search(&self, query: SearchQuery) -> Result<SearchResults, ToolError> {
        let doors = self.clone();
        self.with_store(move |store| {
            let mut visible = doors.search_predicate();
            store.search(&query, &mut visible)
        })
        .await?
        .map_err(|error| store_failure("search the wiki", &error))
    }
}
