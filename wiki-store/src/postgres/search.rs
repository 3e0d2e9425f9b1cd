//! Full-text search with PostgreSQL's own machinery: a `tsvector` per row (title weighted A,
//! content B, the `simple` configuration; see the migration), its GIN index, `ts_rank` with the
//! title weighted five times the content (as SQLite weights), `ts_headline` snippets.
//!
//! The agent's text never reaches PostgreSQL as tsquery syntax: [`crate::fulltext`] splits it
//! into words, and each word is bound as a value and parsed by `phraseto_tsquery`, which reads
//! text, not operators, so `&`, `|`, `!`, `<->`, `:*` and parentheses are just characters. A word
//! the parser splits into several tokens (`title:cats`) must match as a phrase, as a quoted
//! FTS5 string does; the words are ANDed by the `all_words` aggregate. Filters are fragments
//! from a closed set with bound values.

use std::collections::HashMap;

use postgres::Row;

use crate::Result;
use crate::flow::search::SearchReads;
use crate::fulltext::{
    BROWSE_SNIPPET_CHARS, SHOWN_TITLE, Scanned, batch_size, parse_highlights, parsed,
};
use crate::model::search::{
    SearchCandidate, SearchQuery, SearchSort, Snippet, WikiScope, WordMatch,
};
use crate::postgres::binds::Binds;
use crate::postgres::convert::RowExt;
use crate::postgres::pool::Conn;
use crate::reference::DocumentReference;
use crate::stored::{self, DEFAULT_ROW, corrupt, from_ms, to_i64, to_ms};

/// The agent's words as one tsquery: each word's phrase, all required. Bound as `$1` (text[]).
const WORDS: &str =
    "SELECT all_words(phraseto_tsquery('simple', word)) AS query FROM unnest($1::text[]) AS word";

/// The tsquery of `count` words in `mode`, bound as `$1` (text[]): [`WORDS`] for all words; for
/// any word, each word's phrase ORed (`||`) with the next, written out per position so the
/// statement depends only on how many words there are (at most `MAX_TERMS`), never on them. A
/// word without a lexeme is an empty query, which `||` leaves out.
fn words_query(mode: WordMatch, count: usize) -> String {
    match mode {
        WordMatch::All => WORDS.to_owned(),
        WordMatch::Any => {
            let any = (1..=count.max(1))
                .map(|at| format!("phraseto_tsquery('simple', ($1::text[])[{at}])"))
                .collect::<Vec<_>>()
                .join(" || ");
            format!("SELECT {any} AS query")
        }
    }
}

/// Weights of the D, C, B and A parts of a vector: content (B) counts 0.2, the title (A) 1.0,
/// five times as much, as SQLite's relevance. Rank normalization 1 divides by the log of the
/// document's length, so a denser match ranks first. `ts_rank` reads the row alone.
const RANK: &str = "ts_rank('{0, 0, 0.2, 1.0}', d.search, q.query, 1)";

/// `ts_headline`'s options: highlights marked as the neutral parser expects, one fragment of up
/// to 32 words (about 200 characters, SQLite's 32 tokens).
const HEADLINE_OPTIONS: &str = "StartSel=\"\u{2}\", StopSel=\"\u{3}\", MaxWords=32, MinWords=24, ShortWord=0, \
                                MaxFragments=1, FragmentDelimiter=\" … \"";

/// The candidate statement and its values.
fn candidate_query(query: &SearchQuery, words: Option<&[String]>) -> (String, Binds) {
    let mut binds = Binds::default();
    let mut sql = String::new();
    match words {
        Some(words) => {
            binds.push(words.to_vec());
            let words_query = words_query(query.words, words.len());
            sql.push_str(&format!(
                "WITH q AS ({words_query}) SELECT d.id, d.wiki, d.space, d.name, d.locale, d.language, \
                 {SHOWN_TITLE}, d.author, d.updated_ms, d.hidden, {RANK} AS rank FROM documents d, q \
                 WHERE numnode(q.query) > 0 AND d.search @@ q.query"
            ));
        }
        None => sql.push_str(&format!(
            "SELECT d.id, d.wiki, d.space, d.name, d.locale, d.language, {SHOWN_TITLE}, d.author, \
             d.updated_ms, d.hidden, NULL::real AS rank FROM documents d WHERE true"
        )),
    }
    if let WikiScope::Only(wikis) = &query.wikis {
        let list: Vec<String> = wikis.iter().map(|wiki| wiki.as_str().to_owned()).collect();
        sql.push_str(&format!(" AND d.wiki = ANY({}::text[])", binds.push(list)));
    }
    if let Some(space) = &query.space {
        let space = space.to_string();
        // Nested spaces serialize as `Space.` + more: a range on the (wiki, space) index.
        let exact = binds.push(space.clone());
        let above = binds.push(format!("{space}."));
        let below = binds.push(format!("{space}/"));
        sql.push_str(&format!(
            " AND (d.space = {exact} OR (d.space > {above} AND d.space < {below}))"
        ));
    }
    if let Some(author) = &query.author {
        sql.push_str(&format!(" AND d.author = {}", binds.push(author.clone())));
    }
    if let Some(locale) = &query.locale {
        sql.push_str(&format!(
            " AND d.language = {}",
            binds.push(locale.as_str().to_owned())
        ));
    }
    if let Some(from) = query.modified_from {
        sql.push_str(&format!(" AND d.updated_ms >= {}", binds.push(to_ms(from))));
    }
    if let Some(to) = query.modified_to {
        sql.push_str(&format!(" AND d.updated_ms <= {}", binds.push(to_ms(to))));
    }
    if !query.include_hidden {
        sql.push_str(" AND NOT d.hidden");
    }
    sql.push_str(match (query.sort, words.is_some()) {
        (SearchSort::Relevance, true) => " ORDER BY rank DESC, d.id",
        (SearchSort::Relevance | SearchSort::Newest, _) => " ORDER BY d.updated_ms DESC, d.id DESC",
        (SearchSort::Oldest, _) => " ORDER BY d.updated_ms, d.id",
        // Titles and names are COLLATE "C" columns, so lower() folds ASCII only and the order
        // is bytes, as SQLite's NOCASE then BINARY.
        (SearchSort::Title, _) => {
            " ORDER BY lower(CASE WHEN d.title = '' THEN d.name ELSE d.title END), d.wiki, d.space, d.name, d.locale"
        }
    });
    // One batch of candidates from a bound offset, the statement's last parameter.
    let limit = binds.push(to_i64(batch_size(query)));
    sql.push_str(&format!(" LIMIT {limit} OFFSET ${}", binds.len() + 1));
    (sql, binds)
}

fn snippet(row: &Row) -> Result<Snippet> {
    let marked: &str = row.col(1)?;
    let whole_start: bool = row.col(2)?;
    let whole_end: bool = row.col(3)?;
    let mut text = String::with_capacity(marked.len() + 8);
    if !whole_start {
        text.push('…');
    }
    text.push_str(marked);
    if !whole_end {
        text.push('…');
    }
    Ok(parse_highlights(&text))
}

impl SearchReads for Conn {
    fn candidates(
        &mut self,
        query: &SearchQuery,
        words: Option<&[String]>,
        offset: usize,
    ) -> Result<Vec<Scanned>> {
        let (sql, binds) = candidate_query(query, words);
        let offset = to_i64(offset);
        let mut params = binds.params();
        params.push(&offset);
        let rows = self.query(&sql, &params)?;
        // Wikis, spaces and languages repeat across candidates: parse each distinct value once.
        let mut wikis = HashMap::new();
        let mut spaces = HashMap::new();
        let mut locales = HashMap::new();
        rows.iter()
            .map(|row| {
                let wiki = parsed(&mut wikis, row.col(1)?, stored::wiki)?;
                let space = parsed(&mut spaces, row.col(2)?, stored::space)?;
                let reference = DocumentReference::new(wiki, space, row.col::<String>(3)?)
                    .map_err(|_| corrupt("stored page name does not parse"))?;
                let locale = match row.col::<&str>(4)? {
                    DEFAULT_ROW => None,
                    locale => Some(parsed(&mut locales, locale, stored::locale)?),
                };
                let rank: Option<f32> = row.col(10)?;
                Ok(Scanned {
                    id: row.col(0)?,
                    candidate: SearchCandidate {
                        reference,
                        locale,
                        language: parsed(&mut locales, row.col(5)?, stored::locale)?,
                        title: row.col(6)?,
                        author: row.col(7)?,
                        updated: from_ms(row.col(8)?),
                        hidden: row.col(9)?,
                        score: rank.map(f64::from),
                    },
                })
            })
            .collect()
    }

    /// One statement for all rows: with words, `ts_headline` with `…` where the fragment does
    /// not reach the content's start or end (as SQLite's `snippet()`).
    fn snippets(
        &mut self,
        query: &SearchQuery,
        words: Option<&[String]>,
        ids: &[i64],
    ) -> Result<HashMap<i64, Snippet>> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let ids = ids.to_vec();
        let Some(words) = words else {
            let rows = self.query(
                "SELECT id, left(content, $2) FROM documents WHERE id = ANY($1)",
                &[
                    &ids,
                    &i32::try_from(BROWSE_SNIPPET_CHARS).unwrap_or(i32::MAX),
                ],
            )?;
            return rows
                .iter()
                .map(|row| Ok((row.col(0)?, parse_highlights(row.col(1)?))))
                .collect();
        };
        // The fragment is found back in the content to tell whether text with words in it lies
        // before or after it; only a short stretch is parsed to decide, so a long page costs no
        // more than its headline. `OFFSET 0` keeps each step computed once: flattened, the
        // headline was evaluated once per use of it, four times.
        let words_query = words_query(query.words, words.len());
        let rows = self.query(
            &format!(
                "WITH q AS ({words_query}) \
                 SELECT d.id, m.marked, \
                   p.at > 0 AND (p.at = 1 OR (p.at <= 257 AND to_tsvector('simple', left(d.content, p.at - 1)) = ''::tsvector)), \
                   p.at > 0 AND (p.rest <= 0 OR (p.rest <= 256 AND to_tsvector('simple', right(d.content, p.rest)) = ''::tsvector)) \
                 FROM documents d CROSS JOIN q \
                 CROSS JOIN LATERAL (SELECT ts_headline('simple', d.content, q.query, $3) AS marked OFFSET 0) m \
                 CROSS JOIN LATERAL (SELECT translate(m.marked, E'\\x02\\x03', '') AS plain OFFSET 0) f \
                 CROSS JOIN LATERAL (SELECT s.at, length(d.content) - s.at + 1 - length(f.plain) AS rest \
                                     FROM (SELECT strpos(d.content, f.plain) AS at OFFSET 0) s) p \
                 WHERE d.id = ANY($2)"
            ),
            &[&words.to_vec(), &ids, &HEADLINE_OPTIONS],
        )?;
        rows.iter()
            .map(|row| Ok((row.col(0)?, snippet(row)?)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::wiki::WikiId;

    #[test]
    fn words_and_filters_are_bound_never_written_into_the_statement() {
        let hostile = "x' OR 1=1; DROP TABLE documents; --";
        let mut query = SearchQuery::new(
            Some(hostile.to_owned()),
            WikiScope::Only(vec![WikiId::main()]),
        );
        query.author = Some(hostile.to_owned());
        let words = vec![hostile.to_owned(), "b&c|!d:*".to_owned()];
        for mode in [WordMatch::All, WordMatch::Any] {
            query.words = mode;
            let (sql, binds) = candidate_query(&query, Some(&words));
            assert!(!sql.contains("DROP") && !sql.contains("b&c"), "{sql}");
            for index in 1..=binds.len() + 1 {
                assert!(sql.contains(&format!("${index}")), "${index} unused: {sql}");
            }
        }
    }
}
