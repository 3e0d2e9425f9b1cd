//! Full-text rules every backend shares: how the agent's text becomes words, and how a marked
//! snippet becomes text with highlight ranges.
//!
//! The words are what the backend matches, each on its own and all required (SQLite quotes each
//! as an FTS5 string, PostgreSQL makes each a plain lexeme): never query syntax. Which rows the
//! caller may see is decided by the caller's `authorize` before counting ([`crate::scan`]).

use std::collections::{HashMap, HashSet};

use unicode_general_category::get_general_category;

use crate::Result;
use crate::model::search::{SearchCandidate, SearchHit, SearchQuery, SearchResults, Snippet};
use crate::scan::{AuthorizedScan, Offered};

/// Most words a query may use; more would only slow the match down.
pub(crate) const MAX_TERMS: usize = 32;

/// Marks the start of a highlighted match in a backend's snippet (`char(2)`).
pub(crate) const HIGHLIGHT_START: char = '\u{2}';

/// Marks the end of a highlighted match in a backend's snippet (`char(3)`).
pub(crate) const HIGHLIGHT_END: char = '\u{3}';

/// Characters of content shown for a browse result.
pub(crate) const BROWSE_SNIPPET_CHARS: usize = 200;

/// The SQL (both backends) of the title a candidate row `d` shows: its own, or for a
/// translation saved without one, its default row's, as the page reads in its default language.
pub(crate) const SHOWN_TITLE: &str = "CASE WHEN d.title = '' AND d.locale <> '' THEN \
     coalesce((SELECT t.title FROM documents t WHERE t.wiki = d.wiki AND t.space = d.space AND \
     t.name = d.name AND t.locale = ''), '') ELSE d.title END";

/// What a query's text asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SearchText {
    /// No text: browse with the filters alone.
    Browse,
    /// Text without a single word (no letter or digit anywhere): matches nothing.
    Nothing,
    /// These words, each matched on its own, all required.
    Words(Vec<String>),
}

/// Splits the agent's text into words: on whitespace and control characters (NUL included, which
/// a full-text engine would choke on), keeping words with at least one letter or digit, at most
/// [`MAX_TERMS`] of them.
pub(crate) fn search_text(text: Option<&str>) -> SearchText {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return SearchText::Browse;
    };
    let words: Vec<String> = text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|word| word.chars().any(is_word_char))
        .take(MAX_TERMS)
        .map(str::to_owned)
        .collect();
    if words.is_empty() {
        SearchText::Nothing
    } else {
        SearchText::Words(words)
    }
}

/// A character the full-text tokenizers keep in a token: SQLite unicode61's default token
/// categories, `L* N* Co`. Anything else separates tokens, so a word without one (combining marks
/// alone, which Rust counts as alphabetic) would be an empty phrase that matches nothing and
/// empties the whole query (found by fuzz/fuzz_targets/search_text.rs).
fn is_word_char(c: char) -> bool {
    let category = get_general_category(c).abbreviation();
    category.starts_with(['L', 'N']) || category == "Co"
}

/// No results, reporting the words that were looked for.
pub(crate) fn no_results(terms: Vec<String>) -> SearchResults {
    SearchResults {
        hits: Vec::new(),
        total: 0,
        total_capped: false,
        terms,
    }
}

/// A candidate as a backend scanned it: its row id (to find its snippet) and what the caller
/// authorizes.
#[derive(Debug)]
pub(crate) struct Scanned {
    pub(crate) id: i64,
    pub(crate) candidate: SearchCandidate,
}

/// The parsed form of `key`, parsing it only the first time it is seen: wikis, spaces and
/// languages repeat across a batch of candidates.
pub(crate) fn parsed<T: Clone>(
    cache: &mut HashMap<String, T>,
    key: &str,
    parse: impl FnOnce(&str) -> Result<T>,
) -> Result<T> {
    if let Some(value) = cache.get(key) {
        return Ok(value.clone());
    }
    let value = parse(key)?;
    cache.insert(key.to_owned(), value.clone());
    Ok(value)
}

/// Candidates a backend reads per batch for `query`: one more than the scan limit, so that a
/// scan whose candidates are all authorized (the common case) is one read that also tells
/// whether it was cut.
pub(crate) fn batch_size(query: &SearchQuery) -> usize {
    query.scan_limit.saturating_add(1)
}

/// The rows of the page that results if every candidate of the first batch is authorized (the
/// common case): a backend reads their snippets with the candidates, before it releases its
/// connection.
pub(crate) fn foreseen_page(query: &SearchQuery, rows: &[Scanned]) -> Vec<i64> {
    rows.iter()
        .take(query.scan_limit)
        .skip(query.offset)
        .take(query.limit)
        .map(|row| row.id)
        .collect()
}

/// The results of a scan, for every backend. `first` is the first batch of candidates in
/// result order ([`batch_size`] of them at most); while the scan wants more authorized rows
/// and a batch came back full, `next_batch(offset)` reads the next one from that candidate
/// offset. Every candidate is authorized before it is counted or paged, and the scan counts up
/// to `scan_limit` *authorized* rows ([`AuthorizedScan`]), so rows the caller cannot see
/// neither crowd its own out nor show in the total or its "at least". `snippets` holds those
/// read with the first batch; `more_snippets` reads those of page rows it missed. The caller
/// holds no connection while `authorize` runs, so it may use the store.
pub(crate) fn results(
    query: &SearchQuery,
    first: Vec<Scanned>,
    mut snippets: HashMap<i64, Snippet>,
    terms: Vec<String>,
    authorize: &mut dyn FnMut(&SearchCandidate) -> bool,
    mut next_batch: impl FnMut(usize) -> Result<Vec<Scanned>>,
    more_snippets: impl FnOnce(&[i64]) -> Result<HashMap<i64, Snippet>>,
) -> Result<SearchResults> {
    let mut scan = AuthorizedScan::new(query.offset, query.limit, query.scan_limit);
    // A write between two batches may shift a row into the next one: it is counted once.
    let mut seen = HashSet::new();
    let mut page = Vec::new();
    let mut batch = first;
    let mut read = 0;
    loop {
        let full = batch.len() >= batch_size(query);
        read += batch.len();
        for row in batch {
            if !seen.insert(row.id) {
                continue;
            }
            match scan.offer(|| authorize(&row.candidate)) {
                Offered::OnPage => page.push(row),
                Offered::Passed => {}
                Offered::Stop => break,
            }
        }
        if scan.stopped() || !full {
            break;
        }
        batch = next_batch(read)?;
    }
    let unforeseen: Vec<i64> = page
        .iter()
        .map(|row| row.id)
        .filter(|id| !snippets.contains_key(id))
        .collect();
    if !unforeseen.is_empty() {
        snippets.extend(more_snippets(&unforeseen)?);
    }
    let hits = page
        .into_iter()
        .map(|row| SearchHit {
            snippet: snippets.remove(&row.id).unwrap_or_default(),
            candidate: row.candidate,
        })
        .collect();
    Ok(SearchResults {
        hits,
        total: scan.total(),
        total_capped: scan.cut(),
        terms,
    })
}

/// Turns a snippet marked with [`HIGHLIGHT_START`] and [`HIGHLIGHT_END`] into text plus
/// highlight byte ranges; stray markers are dropped.
pub(crate) fn parse_highlights(marked: &str) -> Snippet {
    let mut text = String::with_capacity(marked.len());
    let mut highlights = Vec::new();
    let mut start = None;
    for c in marked.chars() {
        match c {
            HIGHLIGHT_START => start = Some(text.len()),
            HIGHLIGHT_END => {
                if let Some(begin) = start.take()
                    && begin < text.len()
                {
                    highlights.push(begin..text.len());
                }
            }
            _ => text.push(c),
        }
    }
    Snippet { text, highlights }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        match search_text(Some(text)) {
            SearchText::Words(words) => words,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn syntax_is_just_more_words() {
        assert_eq!(
            words(r#"say "hi" NEAR(a b) col:x* OR"#),
            ["say", "\"hi\"", "NEAR(a", "b)", "col:x*", "OR"]
        );
        assert_eq!(words("a\0b"), ["a", "b"]);
        assert_eq!(words(&"w ".repeat(40)).len(), MAX_TERMS);
    }

    #[test]
    fn punctuation_only_text_matches_nothing_and_blank_text_browses() {
        assert_eq!(search_text(Some("* ( ) \" :")), SearchText::Nothing);
        assert_eq!(search_text(Some("   ")), SearchText::Browse);
        assert_eq!(search_text(None), SearchText::Browse);
    }

    /// Regression (fuzz/fuzz_targets/search_text.rs): a word of combining marks alone (U+0368,
    /// U+05C2) became an empty FTS5 phrase, so `hello \u{368}` found nothing, not even `hello`.
    #[test]
    fn a_word_of_combining_marks_alone_is_not_a_word() {
        assert_eq!(search_text(Some("\u{368}")), SearchText::Nothing);
        assert_eq!(words("hello \u{368}"), ["hello"]);
        assert_eq!(search_text(Some("\u{5c2}")), SearchText::Nothing);
        assert_eq!(words("cafe\u{301}"), ["cafe\u{301}"]);
    }

    #[test]
    fn highlights_are_byte_ranges_of_the_clean_text() {
        let snippet = parse_highlights("a \u{2}héllo\u{3} b \u{3}c \u{2}d\u{3}");
        assert_eq!(snippet.text, "a héllo b c d");
        let marked: Vec<&str> = snippet
            .highlights
            .iter()
            .map(|r| &snippet.text[r.clone()])
            .collect();
        assert_eq!(marked, ["héllo", "d"]);
    }
}
