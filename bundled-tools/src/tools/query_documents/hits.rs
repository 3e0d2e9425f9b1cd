//! What `query_documents` returns, structured: the page of authorized results its blocks show,
//! with the counts its footer states.

use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::search::SearchHit;

/// One page of results.
#[mcp_output]
pub(crate) struct SearchOutput {
    /// The results of this page, in the order shown.
    pub(crate) hits: Vec<SearchOutputHit>,
    /// Matching documents you may view, counted (at least this many when `total_capped`).
    pub(crate) total: u64,
    /// Whether counting stopped at the scan limit, so more matches may exist.
    pub(crate) total_capped: bool,
    /// The `offset` of this page.
    pub(crate) offset: u64,
    /// The `offset` of the next page; null on the last one.
    pub(crate) next_offset: Option<u64>,
}

/// One result.
#[mcp_output]
pub(crate) struct SearchOutputHit {
    /// The reference to pass to get_document.
    pub(crate) reference: String,
    /// The title shown (the page name when it has none).
    pub(crate) title: String,
    /// The translation's locale, or null for the document's default row.
    pub(crate) locale: Option<String>,
    /// The row's language.
    pub(crate) language: String,
    /// Where a person views it, when this server has a public URL.
    pub(crate) url: Option<String>,
    /// The last change (ISO-8601, UTC).
    pub(crate) modified: String,
    /// Who made it.
    pub(crate) author: String,
    /// Its place among the authorized matches, in relevance order; null otherwise.
    pub(crate) rank: Option<u64>,
    /// An excerpt on one line.
    pub(crate) snippet: String,
}

impl SearchOutputHit {
    /// `hit` as shown, with its `url`, `rank` and one-line `snippet`.
    pub(crate) fn new(
        hit: &SearchHit,
        url: Option<String>,
        rank: Option<usize>,
        snippet: String,
    ) -> Self {
        let candidate = &hit.candidate;
        Self {
            reference: candidate.reference.to_string(),
            title: shown_title(hit).to_owned(),
            locale: candidate.locale.as_ref().map(ToString::to_string),
            language: candidate.language.to_string(),
            url,
            modified: iso_instant(candidate.updated),
            author: candidate.author.clone(),
            rank: rank.map(crate::seams::counted::count),
            snippet,
        }
    }
}

/// The title a result shows: its own, or the page name when it has none.
pub(crate) fn shown_title(hit: &SearchHit) -> &str {
    let candidate = &hit.candidate;
    if candidate.title.trim().is_empty() {
        candidate.reference.name()
    } else {
        candidate.title.as_str()
    }
}
