//! Full-text search over FTS5 (the index is kept by triggers in the writing transaction).
//!
//! The agent's text never reaches FTS5 as syntax: it is split on whitespace and every word
//! becomes its own quoted string (`"` doubled inside), so `NEAR`, `*`, `:`, `^`, parentheses,
//! column filters and `AND`/`OR`/`NOT` are plain words. Quoted strings joined by spaces are an
//! implicit AND: all words are required. Filters are fragments from a closed set with bound
//! values.

use std::collections::HashMap;

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params_from_iter};
use unicode_general_category::get_general_category;

use crate::api::SearchStore;
use crate::model::search::{
    SearchCandidate, SearchHit, SearchQuery, SearchResults, SearchSort, Snippet, WikiScope,
};
use crate::model::wiki::WikiId;
use crate::reference::{DocumentReference, SpacePath};
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::{DbResultExt, corrupt, from_ms, to_ms};
use crate::sqlite::documents::{DEFAULT_ROW, stored_locale};
use crate::{Result, StoreError};

/// Most words a query may use; more would only slow the match down.
pub(crate) const MAX_TERMS: usize = 32;

/// Characters of content shown for a browse result.
const BROWSE_SNIPPET_CHARS: i64 = 200;

/// Tokens of context in a search snippet (about 200 characters).
const SNIPPET_TOKENS: i64 = 32;

const HIGHLIGHT_START: char = '\u{2}';
const HIGHLIGHT_END: char = '\u{3}';

/// The FTS5 expression for the agent's words, and the words: `None` when no word has a letter
/// or digit (such a query matches nothing). Public only for the fuzz target that checks it
/// against a real FTS5 table (`fuzz/fuzz_targets/search_text.rs`), as
/// `wiki_store::sqlite::__fuzz_match_expression`.
pub fn match_expression(text: &str) -> Option<(String, Vec<String>)> {
    // Control characters (NUL included) separate words too: FTS5 would choke on them.
    let terms: Vec<String> = text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|word| word.chars().any(is_word_char))
        .take(MAX_TERMS)
        .map(str::to_owned)
        .collect();
    if terms.is_empty() {
        return None;
    }
    let expression = terms
        .iter()
        .map(|term| format!("\"{}\"", term.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(" ");
    Some((expression, terms))
}

/// A character the full-text tokenizer keeps in a token: unicode61's default token categories,
/// `L* N* Co`. Anything else separates tokens, so a word without one (combining marks alone, which
/// Rust counts as alphabetic) would be an empty phrase that matches nothing and empties the whole
/// query (found by fuzz/fuzz_targets/search_text.rs).
fn is_word_char(c: char) -> bool {
    let category = get_general_category(c).abbreviation();
    category.starts_with(['L', 'N']) || category == "Co"
}

/// A candidate with its row id, for the snippet lookup.
struct Row {
    id: i64,
    candidate: SearchCandidate,
}

/// The candidate query: SQL text and its bound values.
pub(crate) struct CandidateQuery {
    pub(crate) sql: String,
    pub(crate) values: Vec<Value>,
}

pub(crate) fn candidate_query(query: &SearchQuery, expression: Option<&str>) -> CandidateQuery {
    let mut sql = String::from(
        "SELECT d.id, d.wiki, d.space, d.name, d.locale, d.language, d.title, d.author, d.updated_ms, d.hidden, ",
    );
    let mut values = Vec::new();
    match expression {
        Some(expression) => {
            sql.push_str(
                "documents_fts.rank FROM documents_fts JOIN documents d ON d.id = documents_fts.rowid \
                 WHERE documents_fts MATCH ?",
            );
            values.push(Value::Text(expression.to_owned()));
        }
        None => sql.push_str("NULL FROM documents d WHERE 1"),
    }
    if let WikiScope::Only(wikis) = &query.wikis {
        sql.push_str(" AND d.wiki IN (");
        sql.push_str(&vec!["?"; wikis.len()].join(", "));
        sql.push(')');
        values.extend(wikis.iter().map(|w| Value::Text(w.as_str().to_owned())));
    }
    if let Some(space) = &query.space {
        let space = space.to_string();
        // Nested spaces serialize as `Space.` + more: a range scan on the (wiki, space) index.
        sql.push_str(" AND (d.space = ? OR (d.space > ? AND d.space < ?))");
        values.push(Value::Text(space.clone()));
        values.push(Value::Text(format!("{space}.")));
        values.push(Value::Text(format!("{space}/")));
    }
    if let Some(author) = &query.author {
        sql.push_str(" AND d.author = ?");
        values.push(Value::Text(author.clone()));
    }
    if let Some(locale) = &query.locale {
        sql.push_str(" AND d.language = ?");
        values.push(Value::Text(locale.as_str().to_owned()));
    }
    if let Some(from) = query.modified_from {
        sql.push_str(" AND d.updated_ms >= ?");
        values.push(Value::Integer(to_ms(from)));
    }
    if let Some(to) = query.modified_to {
        sql.push_str(" AND d.updated_ms <= ?");
        values.push(Value::Integer(to_ms(to)));
    }
    if !query.include_hidden {
        sql.push_str(" AND d.hidden = 0");
    }
    sql.push_str(match (query.sort, expression.is_some()) {
        // Ordering by rank alone lets FTS5 sort inside the virtual table and the join stop at
        // the LIMIT; a tie-breaker column would force a sort of every match after the join.
        (SearchSort::Relevance, true) => " ORDER BY documents_fts.rank",
        (SearchSort::Relevance | SearchSort::Newest, _) => " ORDER BY d.updated_ms DESC, d.id DESC",
        (SearchSort::Oldest, _) => " ORDER BY d.updated_ms, d.id",
        (SearchSort::Title, _) => {
            " ORDER BY CASE WHEN d.title = '' THEN d.name ELSE d.title END COLLATE NOCASE, d.wiki, d.space, d.name, d.locale"
        }
    });
    sql.push_str(" LIMIT ?");
    // One more than the scan limit tells whether the scan was cut.
    values.push(Value::Integer(
        i64::try_from(query.scan_limit.saturating_add(1)).unwrap_or(i64::MAX),
    ));
    CandidateQuery { sql, values }
}

fn candidates(conn: &Connection, query: &CandidateQuery) -> Result<Vec<Row>> {
    let mut stmt = conn.prepare_cached(&query.sql).db()?;
    let mut rows = stmt.query(params_from_iter(query.values.iter())).db()?;
    // Wikis, spaces and languages repeat across candidates: parse each distinct value once.
    let mut wikis = HashMap::new();
    let mut spaces = HashMap::new();
    let mut locales = HashMap::new();
    let mut out = Vec::new();
    while let Some(row) = rows.next().db()? {
        let wiki = parsed(&mut wikis, text(row, 1)?, |s| {
            WikiId::new(s).map_err(|_| corrupt("stored wiki id does not parse"))
        })?;
        let space = parsed(&mut spaces, text(row, 2)?, |s| {
            SpacePath::parse(s).map_err(|_| corrupt("stored space does not parse"))
        })?;
        let reference = DocumentReference::new(wiki, space, text(row, 3)?)
            .map_err(|_| corrupt("stored page name does not parse"))?;
        let locale = match text(row, 4)? {
            DEFAULT_ROW => None,
            locale => Some(parsed(&mut locales, locale, stored_locale)?),
        };
        let rank: Option<f64> = row.get(10).db()?;
        out.push(Row {
            id: row.get(0).db()?,
            candidate: SearchCandidate {
                reference,
                locale,
                language: parsed(&mut locales, text(row, 5)?, stored_locale)?,
                title: row.get(6).db()?,
                author: row.get(7).db()?,
                updated: from_ms(row.get(8).db()?),
                hidden: row.get(9).db()?,
                score: rank.map(|rank| -rank),
            },
        });
    }
    Ok(out)
}

/// A text column, borrowed from the row.
fn text<'r>(row: &'r rusqlite::Row<'_>, index: usize) -> Result<&'r str> {
    row.get_ref(index)
        .db()?
        .as_str()
        .map_err(StoreError::backend)
}

/// The parsed form of `key`, parsing it only the first time it is seen.
fn parsed<T: Clone>(
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

/// Rebuilds a reference from stored columns; a value that no longer parses is corruption.
pub(crate) fn stored_reference(wiki: &str, space: &str, name: String) -> Result<DocumentReference> {
    let wiki = WikiId::new(wiki).map_err(|_| corrupt("stored wiki id does not parse"))?;
    let space = SpacePath::parse(space).map_err(|_| corrupt("stored space does not parse"))?;
    DocumentReference::new(wiki, space, name)
        .map_err(|_| corrupt("stored page name does not parse"))
}

fn snippet(conn: &Connection, id: i64, expression: Option<&str>) -> Result<Snippet> {
    let text: Option<String> = match expression {
        Some(expression) => conn
            .prepare_cached(
                "SELECT snippet(documents_fts, 1, char(2), char(3), '…', ?3) FROM documents_fts \
                 WHERE documents_fts MATCH ?1 AND rowid = ?2",
            )
            .db()?
            .query_row(rusqlite::params![expression, id, SNIPPET_TOKENS], |row| {
                row.get(0)
            })
            .optional()
            .db()?,
        None => conn
            .prepare_cached("SELECT substr(content, 1, ?2) FROM documents WHERE id = ?1")
            .db()?
            .query_row(rusqlite::params![id, BROWSE_SNIPPET_CHARS], |row| {
                row.get(0)
            })
            .optional()
            .db()?,
    };
    Ok(parse_highlights(&text.unwrap_or_default()))
}

/// Turns FTS5's marked snippet into text plus highlight ranges; stray markers are dropped.
fn parse_highlights(marked: &str) -> Snippet {
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

impl SearchStore for SqliteStore {
    fn search(
        &self,
        query: &SearchQuery,
        authorize: &mut dyn FnMut(&SearchCandidate) -> bool,
    ) -> Result<SearchResults> {
        let text = query
            .text
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty());
        let matched = match text {
            Some(text) => match match_expression(text) {
                Some(matched) => Some(matched),
                None => return Ok(empty(Vec::new())),
            },
            None => None,
        };
        if matches!(&query.wikis, WikiScope::Only(wikis) if wikis.is_empty()) {
            return Ok(empty(matched.map(|(_, terms)| terms).unwrap_or_default()));
        }
        let expression = matched.as_ref().map(|(expression, _)| expression.as_str());
        let sql = candidate_query(query, expression);
        // Candidates are read first and authorized after the connection is released, so an
        // authorization callback may itself use the store. Snippets for the page that results
        // if every candidate is authorized (the common case) are taken in the same read; only
        // rows that page did not foresee need a second read.
        let (mut rows, mut snippets) = self.read(|conn| {
            let rows = candidates(conn, &sql)?;
            let mut snippets = HashMap::new();
            for row in rows
                .iter()
                .take(query.scan_limit)
                .skip(query.offset)
                .take(query.limit)
            {
                snippets.insert(row.id, snippet(conn, row.id, expression)?);
            }
            Ok((rows, snippets))
        })?;
        let total_capped = rows.len() > query.scan_limit;
        rows.truncate(query.scan_limit);

        let mut total = 0usize;
        let mut page = Vec::new();
        for row in rows {
            if !authorize(&row.candidate) {
                continue;
            }
            if total >= query.offset && page.len() < query.limit {
                page.push(row);
            }
            total += 1;
        }
        let unforeseen: Vec<i64> = page
            .iter()
            .map(|row| row.id)
            .filter(|id| !snippets.contains_key(id))
            .collect();
        if !unforeseen.is_empty() {
            let more = self.read(|conn| {
                unforeseen
                    .iter()
                    .map(|&id| Ok((id, snippet(conn, id, expression)?)))
                    .collect::<Result<Vec<_>>>()
            })?;
            snippets.extend(more);
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
            total,
            total_capped,
            terms: matched.map(|(_, terms)| terms).unwrap_or_default(),
        })
    }
}

fn empty(terms: Vec<String>) -> SearchResults {
    SearchResults {
        hits: Vec::new(),
        total: 0,
        total_capped: false,
        terms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_its_own_quoted_string() {
        let (expression, terms) = match_expression(r#"say "hi" NEAR(a b) col:x* OR"#).unwrap();
        assert_eq!(expression, r#""say" """hi""" "NEAR(a" "b)" "col:x*" "OR""#);
        assert_eq!(terms, ["say", "\"hi\"", "NEAR(a", "b)", "col:x*", "OR"]);
    }

    #[test]
    fn punctuation_only_queries_match_nothing() {
        assert_eq!(match_expression("* ( ) \" :"), None);
        assert_eq!(match_expression("   "), None);
        assert_eq!(match_expression("a\0b").unwrap().1, ["a", "b"]);
    }

    /// Regression (fuzz/fuzz_targets/search_text.rs): a word of combining marks alone (U+0368,
    /// U+05C2) became an empty FTS5 phrase, so `hello \u{368}` found nothing, not even `hello`.
    #[test]
    fn a_word_of_combining_marks_alone_is_not_a_word() {
        assert_eq!(match_expression("\u{368}"), None);
        assert_eq!(match_expression("hello \u{368}").unwrap().1, ["hello"]);
        assert_eq!(match_expression("\u{5c2}"), None);
        assert_eq!(match_expression("cafe\u{301}").unwrap().1, ["cafe\u{301}"]);
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
