//! How often a search word occurs in one row's text: the term frequency SQLite's relevance
//! reads, since FTS5's own per-row counts are reachable only through its C auxiliary-function
//! API (bm25, the one built-in that reads them, also reads statistics over the whole index).
//!
//! Words are counted as the index tokenizes them, closely enough for ranking: runs of letters
//! and digits, compared lowercased after a Porter-family stemmer (`budgets` counts toward
//! `budget`); a word the tokenizer splits (`title:cats`) counts where its parts follow each
//! other. Whether a row matches at all is still FTS5's decision: this only says how much.
//!
//! Counting is bounded per row, so a common word on a large wiki costs little more than finding
//! the rows: only the first [`COUNTED_BYTES`] of a row are read, counting stops at
//! [`MAX_COUNTED`] (the weight has nearly saturated by then), and an ASCII word is looked for
//! with a case-insensitive substring search (a few bytes a cycle) rather than by cutting the
//! whole text into tokens; only where the search finds the word's start is a token stemmed.
//! Each bound reads the row alone, so the order stays independent of every other row.

use regex::bytes::{Regex, RegexBuilder};
use rusqlite::Connection;
use rusqlite::functions::FunctionFlags;
use rust_stemmers::{Algorithm, Stemmer};

/// The SQL name of [`weight`] over [`Pattern::count`]: `search_word_weight(text, word)`, for a
/// row FTS5 matched.
pub(crate) const FUNCTION: &str = "search_word_weight";

/// bm25's `k1`: how fast repeating a word stops adding to its weight.
const SATURATION: f64 = 1.2;

/// How much of a row's text is counted: a page's start says what it is about, and a
/// megabyte page must not cost a megabyte of work on every search that matches it.
const COUNTED_BYTES: usize = 64 * 1024;

/// Occurrences past which counting stops: [`weight`] is then within 4% of its limit.
const MAX_COUNTED: usize = 32;

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
    /// Finds where the first token may start (its probe, ASCII case ignored), when that probe
    /// is ASCII; `None` for other words, whose text is cut into tokens instead.
    finder: Option<Regex>,
}

impl Pattern {
    fn new(word: &str) -> Self {
        let stemmer = Stemmer::create(Algorithm::English);
        let parts: Vec<Part> = tokens(word)
            .map(|token| Part::new(normal(&stemmer, token)))
            .collect();
        let finder = parts
            .first()
            .map(|first| first.probe.as_str())
            .filter(|probe| !probe.is_empty() && probe.is_ascii())
            .and_then(|probe| {
                RegexBuilder::new(&regex::escape(probe))
                    .case_insensitive(true)
                    .unicode(false)
                    .build()
                    .ok()
            });
        Pattern {
            stemmer,
            parts,
            finder,
        }
    }

    /// How many times the word's tokens occur, one after the other, in the counted start of
    /// `text`, up to [`MAX_COUNTED`].
    fn count(&self, text: &str) -> usize {
        let text = counted_start(text);
        match &self.finder {
            Some(finder) => self.count_found(finder, text),
            None => self.count_scanned(text),
        }
    }

    /// [`Pattern::count`] by a substring search for the first token's probe: a hit that starts
    /// a token starts an occurrence when the tokens from there are the word's.
    fn count_found(&self, finder: &Regex, text: &str) -> usize {
        let stemmer = &self.stemmer;
        let mut count = 0;
        let mut from = 0;
        while let Some(hit) = finder.find_at(text.as_bytes(), from) {
            from = hit.end();
            if !starts_token(text, hit.start()) {
                continue;
            }
            let mut following = Tokens {
                text,
                at: hit.start(),
            };
            let whole = self.parts.iter().all(|part| {
                following
                    .next()
                    .is_some_and(|token| part.matches(stemmer, token))
            });
            if whole {
                count += 1;
                from = following.at;
                if count == MAX_COUNTED {
                    break;
                }
            }
        }
        count
    }

    /// [`Pattern::count`] token by token.
    fn count_scanned(&self, text: &str) -> usize {
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
                if count == MAX_COUNTED {
                    break;
                }
            }
        }
        count
    }
}

/// The first [`COUNTED_BYTES`] of `text`, cut at a character boundary.
fn counted_start(text: &str) -> &str {
    let mut end = text.len().min(COUNTED_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default()
}

/// Whether a token starts at byte `at` of `text`: nothing before it, or no letter or digit.
fn starts_token(text: &str, at: usize) -> bool {
    text.get(..at)
        .and_then(|before| before.chars().next_back())
        .is_none_or(|c| !c.is_alphanumeric())
}

/// How many times `word`'s tokens occur, one after the other, in `text`.
#[cfg(test)]
fn occurrences(text: &str, word: &str) -> usize {
    Pattern::new(word).count(text)
}

#[cfg(test)]
mod tests {
    use super::{COUNTED_BYTES, MAX_COUNTED, Pattern, occurrences, weight};

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

    #[test]
    fn the_search_and_the_token_scan_count_the_same() {
        let texts = [
            "Budget, budgets; budgeted. budgetary? nobudget budgetbudget",
            "title: cats, title cats, cats title, title title cats",
            "BUDGET-review budget\u{2019}s \u{2014} r\u{e9}sum\u{e9} budget\u{2026}",
        ];
        for word in ["budget", "title:cats", "review", "cats"] {
            let pattern = Pattern::new(word);
            let finder = pattern
                .finder
                .as_ref()
                .expect("an ASCII word is searched for");
            for text in texts {
                assert_eq!(
                    pattern.count_found(finder, text),
                    pattern.count_scanned(text),
                    "{word} in {text}"
                );
            }
        }
        assert!(
            Pattern::new("caf\u{e9}").finder.is_some(),
            "the probe is `caf`"
        );
        assert!(Pattern::new("\u{e9}t\u{e9}").finder.is_none());
    }

    #[test]
    fn counting_is_bounded_per_row() {
        let many = "budget ".repeat(MAX_COUNTED * 2);
        assert_eq!(occurrences(&many, "budget"), MAX_COUNTED);
        let late = format!("{}budget", "x ".repeat(COUNTED_BYTES / 2));
        assert_eq!(occurrences(&late, "budget"), 0, "past the counted start");
        // A cut inside a character stays on a boundary.
        let wide = format!("{}budget", "\u{e9} ".repeat(COUNTED_BYTES / 3 + 1));
        assert_eq!(occurrences(&wide, "budget"), 0);
    }
}
