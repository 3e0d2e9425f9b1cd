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

use crate::flow::search::SearchReads;
use crate::fulltext::{
    BROWSE_SNIPPET_CHARS, SHOWN_TITLE, Scanned, batch_size, parse_highlights, parsed,
};
use crate::model::search::{
    SearchCandidate, SearchQuery, SearchSort, Snippet, WikiScope, WordMatch,
};
use crate::reference::DocumentReference;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::occurrences;
use crate::stored::{self, DEFAULT_ROW, corrupt, from_ms, to_i64, to_ms};
use crate::{Result, StoreError};

/// Tokens of context in a search snippet (about 200 characters).
const SNIPPET_TOKENS: i64 = 32;

/// The FTS5 expression for the agent's words: each word its own quoted string (`"` doubled
/// inside), joined by spaces (an implicit AND) or, in any-word mode, by `OR`.
pub(crate) fn match_expression(words: &[String], mode: WordMatch) -> String {
    let joiner = match mode {
        WordMatch::All => " ",
        WordMatch::Any => " OR ",
    };
    words
        .iter()
        .map(|word| format!("\"{}\"", word.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(joiner)
}

/// The candidate query: SQL text and its bound values.
pub(crate) struct CandidateQuery {
    pub(crate) sql: String,
    pub(crate) values: Vec<Value>,
}

/// Weight of a word found in the title against one found once in the content (five to one, as
/// PostgreSQL's `ts_rank` weights); repeating a word in the content adds less than this
/// ([`occurrences::weight`]).
const TITLE_WEIGHT: i64 = 5;

/// The relevance of a matching row and its bound values: for each word, [`TITLE_WEIGHT`] if
/// the title holds it plus, if the content does, a weight growing with how often it does.
///
/// FTS5's bm25 weighs each word by how many rows of the whole index hold it and each row's
/// length against the index's average, so the order of two rows a caller may view would move
/// when rows they may not view are added: an oracle for how many invisible pages hold a word.
/// This score reads the row alone: which columns FTS5 matched and the word's count in the
/// content; equal scores fall back to the shorter content (a denser match, what bm25's length
/// normalization rewards), then the row id: nothing outside the row. Each word's rows per
/// column are one uncorrelated subquery, which SQLite evaluates once per statement.
fn relevance(words: &[String]) -> (String, Vec<Value>) {
    let mut terms = Vec::new();
    let mut values = Vec::new();
    for word in words {
        let quoted = match_expression(std::slice::from_ref(word), WordMatch::All);
        let in_column = "d.id IN (SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?)";
        terms.push(format!("{TITLE_WEIGHT} * ({in_column})"));
        values.push(Value::Text(format!("{{title}} : {quoted}")));
        terms.push(format!(
            "(CASE WHEN {in_column} THEN {}(d.content, ?) ELSE 0 END)",
            occurrences::FUNCTION
        ));
        values.push(Value::Text(format!("{{content}} : {quoted}")));
        values.push(Value::Text(word.clone()));
    }
    (format!("({})", terms.join(" + ")), values)
}

pub(crate) fn candidate_query(query: &SearchQuery, words: Option<&[String]>) -> CandidateQuery {
    let mut sql = String::from("SELECT d.id, d.wiki, d.space, d.name, d.locale, d.language, ");
    sql.push_str(SHOWN_TITLE);
    sql.push_str(", d.author, d.updated_ms, d.hidden, ");
    let mut values = Vec::new();
    match words {
        Some(words) => {
            let (score, score_values) = relevance(words);
            sql.push_str(&score);
            values.extend(score_values);
            sql.push_str(
                " FROM documents_fts JOIN documents d ON d.id = documents_fts.rowid \
                 WHERE documents_fts MATCH ?",
            );
            values.push(Value::Text(match_expression(words, query.words)));
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
    sql.push_str(match (query.sort, words.is_some()) {
        (SearchSort::Relevance, true) => " ORDER BY 11 DESC, octet_length(d.content), d.id",
        (SearchSort::Relevance | SearchSort::Newest, _) => " ORDER BY d.updated_ms DESC, d.id DESC",
        (SearchSort::Oldest, _) => " ORDER BY d.updated_ms, d.id",
        (SearchSort::Title, _) => {
            " ORDER BY CASE WHEN d.title = '' THEN d.name ELSE d.title END COLLATE NOCASE, d.wiki, d.space, d.name, d.locale"
        }
    });
    // One batch of candidates from an offset, bound last by [`candidates`].
    sql.push_str(" LIMIT ? OFFSET ?");
    values.push(Value::Integer(to_i64(batch_size(query))));
    CandidateQuery { sql, values }
}

/// A text column, borrowed from the row.
fn text<'r>(row: &'r rusqlite::Row<'_>, index: usize) -> Result<&'r str> {
    row.get_ref(index)
        .db()?
        .as_str()
        .map_err(StoreError::backend)
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
            .query_row(rusqlite::params![id, to_i64(BROWSE_SNIPPET_CHARS)], |row| {
                row.get(0)
            })
            .optional()
            .db()?,
    };
    Ok(parse_highlights(&text.unwrap_or_default()))
}

impl SearchReads for &Connection {
    fn candidates(
        &mut self,
        query: &SearchQuery,
        words: Option<&[String]>,
        offset: usize,
    ) -> Result<Vec<Scanned>> {
        let offset = Value::Integer(to_i64(offset));
        let compiled = candidate_query(query, words);
        let mut stmt = self.prepare_cached(&compiled.sql).db()?;
        let values = compiled.values.iter().chain(std::iter::once(&offset));
        let mut rows = stmt.query(params_from_iter(values)).db()?;
        // Wikis, spaces and languages repeat across candidates: parse each distinct value once.
        let mut wikis = HashMap::new();
        let mut spaces = HashMap::new();
        let mut locales = HashMap::new();
        let mut out = Vec::new();
        while let Some(row) = rows.next().db()? {
            let wiki = parsed(&mut wikis, text(row, 1)?, stored::wiki)?;
            let space = parsed(&mut spaces, text(row, 2)?, stored::space)?;
            let reference = DocumentReference::new(wiki, space, text(row, 3)?)
                .map_err(|_| corrupt("stored page name does not parse"))?;
            let locale = match text(row, 4)? {
                DEFAULT_ROW => None,
                locale => Some(parsed(&mut locales, locale, stored::locale)?),
            };
            let score: Option<f64> = row.get(10).db()?;
            out.push(Scanned {
                id: row.get(0).db()?,
                candidate: SearchCandidate {
                    reference,
                    locale,
                    language: parsed(&mut locales, text(row, 5)?, stored::locale)?,
                    title: row.get(6).db()?,
                    author: row.get(7).db()?,
                    updated: from_ms(row.get(8).db()?),
                    hidden: row.get(9).db()?,
                    score,
                },
            });
        }
        Ok(out)
    }

    /// One statement per row: FTS5's `snippet()` needs the row's match.
    fn snippets(
        &mut self,
        query: &SearchQuery,
        words: Option<&[String]>,
        ids: &[i64],
    ) -> Result<HashMap<i64, Snippet>> {
        let expression = words.map(|words| match_expression(words, query.words));
        ids.iter()
            .map(|&id| Ok((id, snippet(self, id, expression.as_deref())?)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_its_own_quoted_string() {
        let words: Vec<String> = [r#"say"#, r#""hi""#, "NEAR(a", "col:x*", "OR"]
            .map(str::to_owned)
            .into();
        assert_eq!(
            match_expression(&words, WordMatch::All),
            r#""say" """hi""" "NEAR(a" "col:x*" "OR""#
        );
        assert_eq!(
            match_expression(&words, WordMatch::Any),
            r#""say" OR """hi""" OR "NEAR(a" OR "col:x*" OR "OR""#
        );
    }
}
