//! Full-text search.

use crate::Result;
use crate::model::search::{SearchCandidate, SearchQuery, SearchResults};

/// Full-text search and browsing with filters, authorized before counting and paging.
pub trait SearchStore {
    /// Runs `query`: candidates are produced in result order (at most `scan_limit` of them) and
    /// each is passed to `authorize`; only authorized candidates are counted and paged, so a
    /// denied row leaves no trace in the total. Snippets are computed for the returned page only.
    ///
    /// The query text is searched as words: each word is matched on its own (as a quoted string,
    /// so no search syntax such as `NEAR`, `*`, `:` or `OR` is interpreted), all are required,
    /// and results rank by bm25 with the title weighted over the content.
    fn search(
        &self,
        query: &SearchQuery,
        authorize: &mut dyn FnMut(&SearchCandidate) -> bool,
    ) -> Result<SearchResults>;
}
