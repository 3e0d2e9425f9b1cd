//! The any-word mode of full-text search ([`WordMatch::Any`]), decided once for every backend:
//! a row matches when it holds at least one of the words, and the backend's relevance (SQLite's
//! score of the row, PostgreSQL's `ts_rank`) puts rows with more of them first. Each word is still a
//! plain term, quoted or bound exactly as in the all-words mode: never query syntax.
//!
//! Meant for natural-language questions ("how do I install the server"), where requiring every
//! word finds nothing. Function words go first: in any-word mode "the" or "how" alone would
//! match nearly every row, so the backend would rank the whole wiki for every question (a cost
//! that grows with the wiki) while the ranking gains nothing from them (relevance weighs them
//! near zero anyway). So the words of a short, closed list of English function words are
//! dropped, unless that leaves nothing: a question made only of them is searched as written.
//! The list is English only; in another language such words stay, cost more and rank low.

use std::collections::HashSet;

use crate::model::search::WordMatch;

/// English function words: articles, pronouns, auxiliaries, prepositions, conjunctions and
/// question words, as they appear in questions.
const STOP_WORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "all", "am", "an", "and", "any", "are", "as", "at",
    "be", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could",
    "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had",
    "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how", "i", "if", "in",
    "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "no", "nor", "not",
    "of", "off", "on", "once", "only", "or", "other", "our", "ours", "out", "over", "own", "same",
    "she", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very",
    "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will",
    "with", "would", "you", "your", "yours",
];

/// The words a search in `mode` matches: in all-words mode the agent's words as they are; in
/// any-word mode without duplicates (any case) and without function words (unless only
/// function words were given).
pub(crate) fn words_for(mode: WordMatch, words: Vec<String>) -> Vec<String> {
    match mode {
        WordMatch::All => words,
        WordMatch::Any => significant(words),
    }
}

fn significant(words: Vec<String>) -> Vec<String> {
    let mut seen = HashSet::new();
    let distinct: Vec<String> = words
        .into_iter()
        .filter(|word| seen.insert(word.to_lowercase()))
        .collect();
    let kept: Vec<String> = distinct
        .iter()
        .filter(|word| !is_stop_word(word))
        .cloned()
        .collect();
    if kept.is_empty() { distinct } else { kept }
}

/// Whether `word` (any case, punctuation around it ignored: "I", "how?") is a function word.
fn is_stop_word(word: &str) -> bool {
    let bare = word
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    STOP_WORDS.contains(&bare.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn any_word_mode_drops_function_words_and_duplicates() {
        assert_eq!(
            words_for(
                WordMatch::Any,
                words("How do I install the Server? SERVER? install")
            ),
            words("install Server?")
        );
    }

    #[test]
    fn a_question_of_function_words_alone_is_searched_as_written() {
        assert_eq!(
            words_for(WordMatch::Any, words("to be or not to be")),
            words("to be or not")
        );
    }

    #[test]
    fn all_words_mode_keeps_every_word() {
        assert_eq!(
            words_for(WordMatch::All, words("how do I install the server")),
            words("how do I install the server")
        );
    }
}
