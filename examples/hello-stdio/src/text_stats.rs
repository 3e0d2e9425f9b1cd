//! `text_stats`: counts of a text and its most frequent words.

use std::collections::HashMap;
use std::fmt::Write as _;

use mcp_runtime::output::guard::fragment;
use mcp_runtime::prelude::*;

/// Count the lines, words and characters of a text, and list its most frequent words.
///
/// A word is a run of letters, digits and apostrophes, compared without regard to case. Ties in
/// frequency are listed alphabetically.
#[mcp_tool(id = "text_stats", category = "Text", title = "Text statistics")]
pub struct TextStats {
    /// The text to measure, kept exactly as sent.
    #[param(raw)]
    text: String,
    /// How many of the most frequent words to list (default 5, at most 20).
    #[param(default = 5, range = 1..=20)]
    top: usize,
}

impl Execute for TextStats {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        // The parser refused anything outside 1..=20.
        Ok(ToolOutput::text(report(&self.text, self.top)))
    }
}

/// The report: three counts, then the `top` most frequent words with their counts.
fn report(text: &str, top: usize) -> String {
    let mut frequencies: HashMap<String, usize> = HashMap::new();
    let mut words = 0;
    for word in text
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .map(|word| word.trim_matches('\''))
        .filter(|word| !word.is_empty())
    {
        words += 1;
        *frequencies.entry(word.to_lowercase()).or_default() += 1;
    }
    let mut ranked: Vec<(String, usize)> = frequencies.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut out = String::new();
    let _ = writeln!(out, "Lines: {}", text.lines().count());
    let _ = writeln!(out, "Words: {words}");
    let _ = writeln!(out, "Characters: {}", text.chars().count());
    if ranked.is_empty() {
        out.push_str("Most frequent: none (the text has no words)");
    } else {
        let listed: Vec<String> = ranked
            .iter()
            .take(top)
            .map(|(word, count)| format!("{} ({count})", fragment(word)))
            .collect();
        let _ = write!(out, "Most frequent: {}", listed.join(", "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_ranks_case_insensitively_with_alphabetical_ties() {
        assert_eq!(
            report("The cat saw the dog.\nThe DOG ran, didn't it?", 3),
            "Lines: 2\nWords: 10\nCharacters: 44\nMost frequent: the (3), dog (2), cat (1)"
        );
        assert_eq!(
            report("b a", 5),
            "Lines: 1\nWords: 2\nCharacters: 3\nMost frequent: a (1), b (1)"
        );
    }

    #[test]
    fn a_text_without_words_says_so() {
        assert_eq!(
            report(" -- \n", 5),
            "Lines: 1\nWords: 0\nCharacters: 5\nMost frequent: none (the text has no words)"
        );
        assert_eq!(
            report("", 1),
            "Lines: 0\nWords: 0\nCharacters: 0\nMost frequent: none (the text has no words)"
        );
    }
}
