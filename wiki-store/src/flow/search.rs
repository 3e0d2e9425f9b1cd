//! Full-text search over any backend: the agent's text as words ([`crate::fulltext`]), then
//! candidates in result order, each authorized before it is counted or paged.

use std::collections::HashMap;

use crate::Result;
use crate::any_words::words_for;
use crate::api::SearchStore;
use crate::backend::Backend;
use crate::fulltext::{Scanned, SearchText, foreseen_page, no_results, results, search_text};
use crate::model::search::{SearchCandidate, SearchQuery, SearchResults, Snippet, WikiScope};

/// What a search reads. `words` are the agent's words as searched (`None`: browsing, every row
/// in the query's order); the backend turns them into its own full-text expression, always as
/// bound values.
pub(crate) trait SearchReads {
    /// The batch of candidates ([`crate::fulltext::batch_size`] at most) from candidate
    /// `offset`, in result order.
    fn candidates(
        &mut self,
        query: &SearchQuery,
        words: Option<&[String]>,
        offset: usize,
    ) -> Result<Vec<Scanned>>;

    /// The snippets of rows `ids`: with words, the content's best fragment with the matches
    /// marked; browsing, the content's first characters.
    fn snippets(
        &mut self,
        query: &SearchQuery,
        words: Option<&[String]>,
        ids: &[i64],
    ) -> Result<HashMap<i64, Snippet>>;
}

impl<B: Backend> SearchStore for B {
    fn search(
        &self,
        query: &SearchQuery,
        authorize: &mut dyn FnMut(&SearchCandidate) -> bool,
    ) -> Result<SearchResults> {
        let words = match search_text(query.text.as_deref()) {
            SearchText::Browse => None,
            SearchText::Nothing => return Ok(no_results(Vec::new())),
            SearchText::Words(words) => Some(words_for(query.words, words)),
        };
        if matches!(&query.wikis, WikiScope::Only(wikis) if wikis.is_empty()) {
            return Ok(no_results(words.unwrap_or_default()));
        }
        // No stored name holds a NUL (PostgreSQL text cannot), so a filter holding one matches
        // nothing, on every backend alike, rather than failing where it cannot be bound.
        if query
            .author
            .as_deref()
            .is_some_and(|author| author.contains('\0'))
        {
            return Ok(no_results(words.unwrap_or_default()));
        }
        let words = words.as_deref();
        // Candidates are read first and authorized after the connection is released, so an
        // authorization callback may itself use the store. Snippets for the page that results
        // if every candidate is authorized (the common case) are taken in the same read; only
        // rows that page did not foresee need another.
        let (first, snippets) = self.read(|rows| {
            let first = rows.candidates(query, words, 0)?;
            let snippets = rows.snippets(query, words, &foreseen_page(query, &first))?;
            Ok((first, snippets))
        })?;
        let terms = words.map(<[String]>::to_vec).unwrap_or_default();
        results(
            query,
            first,
            snippets,
            terms,
            authorize,
            |offset| self.read(|rows| rows.candidates(query, words, offset)),
            |unforeseen| self.read(|rows| rows.snippets(query, words, unforeseen)),
        )
    }
}
