//! Full-text search.

use crate::Result;
use crate::model::search::{SearchCandidate, SearchQuery, SearchResults};

/// Full-text search and browsing with filters, authorized before counting and paging.
pub trait SearchStore {
    /// Runs `query`: candidates are produced in result order (at most `scan_limit` of them) and
    /// each is passed to `authorize`; only authorized candidates are counted and paged, so a
    /// denied row leaves no trace in the total. Snippets are computed for the returned page only.
    ///
    /// The query text is searched as words: each word is matched on its own (as a quoted FTS5
    /// string on SQLite, a bound `phraseto_tsquery` on PostgreSQL, so no search syntax such as
    /// `NEAR`, `*`, `:`, `OR`, `&` or `!` is interpreted), all are required, and results rank
    /// with the title weighted five times the content (a score of the row alone on SQLite, `ts_rank` on
    /// PostgreSQL). Words are matched as each backend's tokenizer splits text: SQLite's folds
    /// diacritics and stems English words, PostgreSQL's `simple` configuration matches words
    /// exactly and keeps host names, e-mail addresses and paths whole.
    fn search(
        &self,
        query: &SearchQuery,
        authorize: &mut dyn FnMut(&SearchCandidate) -> bool,
    ) -> Result<SearchResults>;
}
