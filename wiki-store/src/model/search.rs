//! Full-text search requests and results.

use std::ops::Range;

use time::OffsetDateTime;

use crate::model::locale::Locale;
use crate::model::wiki::WikiId;
use crate::reference::{DocumentReference, SpacePath};

/// Which wikis a search covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WikiScope {
    /// The whole farm.
    All,
    /// These wikis only; an empty list matches nothing (fail closed).
    Only(Vec<WikiId>),
}

/// Result order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchSort {
    /// Rows holding more of the words first, a word in the title weighing five in the content,
    /// scored from the row alone so pages a caller cannot view never move the order; browsing
    /// falls back to newest.
    Relevance,
    /// Most recently updated first.
    Newest,
    /// Least recently updated first.
    Oldest,
    /// By title, then reference.
    Title,
}

/// A search (with words) or a browse (without), with filters and paging.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchQuery {
    /// The agent's words; `None` browses. Each word is matched on its own, all are required (or any: [`SearchQuery::words`]), and
    /// no search syntax is interpreted.
    pub text: Option<String>,
    /// The wikis searched.
    pub wikis: WikiScope,
    /// Only pages in this space or its nested spaces.
    pub space: Option<SpacePath>,
    /// Only pages whose current version is by this author.
    pub author: Option<String>,
    /// Only rows in this language (a default row matches its default locale).
    pub locale: Option<Locale>,
    /// Only rows updated at or after this instant.
    pub modified_from: Option<OffsetDateTime>,
    /// Only rows updated at or before this instant.
    pub modified_to: Option<OffsetDateTime>,
    /// Include hidden rows.
    pub include_hidden: bool,
    /// Result order.
    pub sort: SearchSort,
    /// Authorized results to skip.
    pub offset: usize,
    /// Authorized results to return.
    pub limit: usize,
    /// How many candidates to examine at most; the total is then a lower bound
    /// ([`SearchResults::total_capped`]).
    pub scan_limit: usize,
    /// Which of the words a row must contain: all (the default), or any.
    pub words: WordMatch,
}

/// Which of a search's words a row must contain.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum WordMatch {
    /// Every word (the reference's rule for keyword search).
    #[default]
    All,
    /// At least one, rows with more of the words first; common English function words
    /// ("the", "how") are left out unless the text has no other word. For natural-language
    /// questions, where requiring every word finds nothing.
    Any,
}

impl SearchQuery {
    /// A search for `text` in the given wikis, relevance order, first 10 results, 2000 scanned.
    pub fn new(text: Option<String>, wikis: WikiScope) -> Self {
        SearchQuery {
            text,
            wikis,
            space: None,
            author: None,
            locale: None,
            modified_from: None,
            modified_to: None,
            include_hidden: false,
            sort: SearchSort::Relevance,
            offset: 0,
            limit: 10,
            scan_limit: 2000,
            words: WordMatch::All,
        }
    }
}

/// A matching row, before authorization: what the caller's predicate decides on.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchCandidate {
    /// The locale-free reference (decide rights on this).
    pub reference: DocumentReference,
    /// `None` for a default row, else the translation's locale.
    pub locale: Option<Locale>,
    /// The row's language (the default locale for a default row).
    pub language: Locale,
    /// The row's title.
    pub title: String,
    /// Who saved the current version.
    pub author: String,
    /// When the current version was saved.
    pub updated: OffsetDateTime,
    /// The hidden flag.
    pub hidden: bool,
    /// Relevance (higher is better), for text searches only.
    pub score: Option<f64>,
}

/// A highlighted excerpt of a row's content.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snippet {
    /// The excerpt.
    pub text: String,
    /// Byte ranges of `text` that matched a search word.
    pub highlights: Vec<Range<usize>>,
}

/// An authorized result.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    /// The row.
    pub candidate: SearchCandidate,
    /// A highlighted excerpt for searches; the content's first characters for browses.
    pub snippet: Snippet,
}

/// One page of authorized results.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResults {
    /// The requested page.
    pub hits: Vec<SearchHit>,
    /// Authorized matches counted (only authorized candidates are counted).
    pub total: usize,
    /// Whether the scan stopped at the scan limit, so that more matches may exist.
    pub total_capped: bool,
    /// The words searched for, as matched (empty for a browse).
    pub terms: Vec<String>,
}
