//! How often a search word occurs in one row's text: the term frequency SQLite's relevance
//! reads, since FTS5's own per-row counts are reachable only through its C auxiliary-function
//! API (bm25, the one built-in that reads them, also reads statistics over the whole index).
//!
//! Words are counted as the index tokenizes them, closely enough for ranking: runs of letters
//! and digits, compared lowercased after a Porter-family stemmer (`budgets` counts toward
//! `budget`); a word the tokenizer splits (`title:cats`) counts where its parts follow each
//! other. Whether a row matches at all is still FTS5's decision: this only says how much.

use rusqlite::Connection;
use rusqlite::functions::FunctionFlags;
use rust_stemmers::{Algorithm, Stemmer};

/// The SQL name of [`weight`] over [`Pattern::count`]: `search_word_weight(text, word)`, for a
/// row FTS5 matched.
pub(crate) const FUNCTION: &str = "search_word_weight";

/// bm25's `k1`: how fast repeating a word stops adding to its weight.
const SATURATION: f64 = 1.2;

/// The weight of a word found `count` times in a row the index matched: one for a single
/// occurrence, growing with each repetition towards 2.2 (bm25's term-frequency curve without
/// its index-wide length normalization), so twenty mentions outrank one, yet never a title
/// match. The count is floored at one: the row matched, whatever this count's tokenizer says.
pub(crate) fn weight(count: usize) -> f64 {
    let count = count.max(1) as f64;
    count * (SATURATION + 1.0) / (count + SATURATION)
}

/// Registers [`FUNCTION`] on a connection: deterministic, and innocuous (it reads only its
/// arguments), so SQLite may use it anywhere a built-in would go.
pub(crate) fn register(conn: &Connection) -> rusqlite::Result<()> {
    conn.create_scalar_function(
        FUNCTION,
        2,
        FunctionFlags::SQLITE_UTF8
            | FunctionFlags::SQLITE_DETERMINISTIC
            | FunctionFlags::SQLITE_INNOCUOUS,
        |ctx| {
            // The word is the same for every row of a statement: parsed and stemmed once.
            let pattern = ctx.get_or_create_aux(1, |word| {
                Ok::<_, std::convert::Infallible>(Pattern::new(word.as_str().unwrap_or_default()))
            })?;
            let text = ctx.get_raw(0).as_str().unwrap_or_default();
            Ok(weight(pattern.count(text)))
        },
    )
}

/// The tokens of `text` as the index's `unicode61` tokenizer cuts them: runs of letters and
/// digits. Read byte by byte while the text is ASCII (decoding every character was most of the
/// cost of ranking tens of thousands of matches).
fn tokens(text: &str) -> Tokens<'_> {
    Tokens { text, at: 0 }
}

struct Tokens<'t> {
    text: &'t str,
    at: usize,
}

impl Tokens<'_> {
    /// Whether the character at `at` is part of a token, and its length in bytes.
    fn class(&self, at: usize) -> Option<(bool, usize)> {
        let byte = *self.text.as_bytes().get(at)?;
        if byte.is_ascii() {
            return Some((byte.is_ascii_alphanumeric(), 1));
        }
        let c = self.text.get(at..)?.chars().next()?;
        Some((c.is_alphanumeric(), c.len_utf8()))
    }
}

impl<'t> Iterator for Tokens<'t> {
    type Item = &'t str;

    fn next(&mut self) -> Option<&'t str> {
        loop {
            let (word, width) = self.class(self.at)?;
            if word {
                break;
            }
            self.at += width;
        }
        let start = self.at;
        while let Some((true, width)) = self.class(self.at) {
            self.at += width;
        }
        self.text.get(start..self.at)
    }
}

/// A token as compared: lowercased, then stemmed.
fn normal(stemmer: &Stemmer, token: &str) -> String {
    stemmer.stem(&token.to_lowercase()).into_owned()
}

/// One token of the word, with the cheap test that rules out most text tokens unstemmed.
struct Part {
    stem: String,
    /// The stem less its last character: a stemmer rewrites the end of a word (`happy` is
    /// `happi`), never its start, so a token that does not start with this (ignoring ASCII
    /// case) cannot stem to `stem`.
    probe: String,
}

impl Part {
    fn new(stem: String) -> Self {
        let cut = stem.char_indices().last().map_or(0, |(at, _)| at.max(1));
        let probe = stem.get(..cut).unwrap_or(&stem).to_owned();
        Part { stem, probe }
    }

    fn matches(&self, stemmer: &Stemmer, token: &str) -> bool {
        let plausible = match token.get(..self.probe.len()) {
            Some(start) if token.is_ascii() => start.eq_ignore_ascii_case(&self.probe),
            Some(_) | None => !token.is_ascii(),
        };
        plausible && normal(stemmer, token) == self.stem
    }
}

/// A word's tokens, stemmed, as [`Pattern::count`] looks for them.
struct Pattern {
    stemmer: Stemmer,
    parts: Vec<Part>,
}

impl Pattern {
    fn new(word: &str) -> Self {
        let stemmer = Stemmer::create(Algorithm::English);
        let parts = tokens(word)
            .map(|token| Part::new(normal(&stemmer, token)))
            .collect();
        Pattern { stemmer, parts }
    }

    /// How many times the word's tokens occur, one after the other, in `text`.
    fn count(&self, text: &str) -> usize {
        let Some(first) = self.parts.first() else {
            return 0;
        };
        let stemmer = &self.stemmer;
        let mut count = 0;
        let mut matched = 0;
        for token in tokens(text) {
            matched = if self.parts[matched].matches(stemmer, token) {
                matched + 1
            } else {
                usize::from(matched > 0 && first.matches(stemmer, token))
            };
            if matched == self.parts.len() {
                count += 1;
                matched = 0;
            }
        }
        count
    }
}

/// How many times `word`'s tokens occur, one after the other, in `text`.
#[cfg(test)]
fn occurrences(text: &str, word: &str) -> usize {
    Pattern::new(word).count(text)
}

#[cfg(test)]
mod tests {
    use super::{occurrences, weight};

    #[test]
    fn repetition_adds_weight_that_never_reaches_a_title_match() {
        assert_eq!(weight(0), 1.0);
        assert_eq!(weight(1), 1.0);
        assert!(weight(2) > weight(1));
        assert!(weight(20) > weight(2));
        assert!(weight(usize::MAX) < 2.2 + 1e-9);
    }

    #[test]
    fn counts_whole_words_in_any_case_and_inflection() {
        assert_eq!(
            occurrences("Budget, budgets; budgeted. budgetary?", "budget"),
            3
        );
        assert_eq!(occurrences("the budget", "Budgets"), 1);
        assert_eq!(occurrences("nobudget budgetbudget", "budget"), 0);
        assert_eq!(occurrences("Café café CAFÉ", "café"), 3);
        assert_eq!(occurrences("a b a", "a"), 2);
        assert_eq!(
            occurrences("budget\u{2019}s \u{2014} budget\u{2026}", "budget"),
            2
        );
    }

    #[test]
    fn a_word_of_several_tokens_counts_where_they_follow_each_other() {
        assert_eq!(
            occurrences(
                "title: cats, title cats, cats title, title title cats",
                "title:cats"
            ),
            3
        );
        assert_eq!(occurrences("anything", "::"), 0);
        assert_eq!(occurrences("", "word"), 0);
    }
}
