//! Doc comments to text: the description an agent reads and the one-line catalog summary.
//!
//! Doc comments are hard-wrapped for the source, not for the agent, so lines of one paragraph
//! are joined with a space; paragraphs, list items, headings, tables and fenced code keep their
//! line breaks, as Markdown would render them.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The text of the `#[doc = "..."]` attributes (what `///` and `/** */` become), one entry per
/// source line, or `None` when there is no doc comment or it is blank.
pub(crate) fn doc_lines(attrs: &[Attribute]) -> Option<Vec<String>> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(meta) = &attr.meta
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }) = &meta.value
        {
            // `split`, not `lines`: an empty `///` line is a paragraph break and must stay.
            lines.extend(text.value().split('\n').map(str::to_owned));
        }
    }
    if lines.iter().all(|line| line.trim().is_empty()) {
        None
    } else {
        Some(lines)
    }
}

/// The description: lines unindented and reflowed, trimmed.
pub(crate) fn description(lines: &[String]) -> String {
    let indent = lines
        .iter()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out = String::new();
    let mut in_fence = false;
    // Whether the previous line can take a continuation (prose, or a list item's text).
    let mut open_line = false;
    let mut pending_break = false;
    for line in lines {
        let line = line.get(indent..).unwrap_or(line.trim_start()).trim_end();
        let trimmed = line.trim_start();
        if in_fence {
            out.push('\n');
            out.push_str(line);
            if is_fence(trimmed) {
                in_fence = false;
            }
            continue;
        }
        if trimmed.is_empty() {
            pending_break = !out.is_empty();
            open_line = false;
            continue;
        }
        if pending_break {
            out.push_str("\n\n");
            pending_break = false;
        } else if open_line && !starts_block(trimmed) && !is_indented_code(line) {
            out.push(' ');
            out.push_str(trimmed);
            continue;
        } else if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(line);
        in_fence = is_fence(trimmed);
        open_line = !in_fence && !is_indented_code(line) && !is_closed_block(trimmed);
    }
    out.trim().to_owned()
}

/// The catalog summary: the description's first sentence, up to the first ". " (abbreviations
/// such as "e.g." excepted) or the end of the first line.
pub(crate) fn summary(description: &str) -> String {
    let first_line = description.lines().next().unwrap_or_default().trim();
    let mut search_from = 0;
    while let Some(found) = first_line[search_from..].find(". ") {
        let end = search_from + found + 1;
        let before = &first_line[..end];
        if ABBREVIATIONS
            .iter()
            .any(|abbr| ends_with_word(before, abbr))
        {
            search_from = end;
            continue;
        }
        return before.to_owned();
    }
    first_line.to_owned()
}

/// Abbreviations whose period does not end a sentence.
const ABBREVIATIONS: &[&str] = &["e.g.", "i.e.", "vs.", "cf.", "etc."];

fn ends_with_word(text: &str, word: &str) -> bool {
    text.strip_suffix(word).is_some_and(|rest| {
        rest.chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
    })
}

fn is_fence(trimmed: &str) -> bool {
    trimmed.starts_with("```") || trimmed.starts_with("~~~")
}

fn is_indented_code(line: &str) -> bool {
    line.starts_with("    ") || line.starts_with('\t')
}

/// A line that starts its own block: a list item, heading, quote, table row or fence.
fn starts_block(trimmed: &str) -> bool {
    let list_marker = ["- ", "* ", "+ "].iter().any(|m| trimmed.starts_with(m));
    let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
    let numbered = digits > 0
        && [". ", ") "]
            .iter()
            .any(|m| trimmed[digits..].starts_with(m));
    list_marker
        || numbered
        || is_closed_block(trimmed)
        || trimmed.starts_with('>')
        || is_fence(trimmed)
}

/// A block that never takes a continuation line: a heading or a table row.
fn is_closed_block(trimmed: &str) -> bool {
    trimmed.starts_with('#') || trimmed.starts_with('|')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn hard_wrapped_prose_becomes_one_line_per_paragraph() {
        let text = " Read a document's revision history.\n\n Lists revisions newest first,\n or shows one revision.";
        assert_eq!(
            description(&lines(text)),
            "Read a document's revision history.\n\nLists revisions newest first, or shows one revision."
        );
    }

    #[test]
    fn list_items_headings_and_code_keep_their_lines() {
        let text = " Modes:\n - list: newest first,\n   one per line\n - diff\n\n # Example\n ```\n a\n   b\n ```";
        assert_eq!(
            description(&lines(text)),
            "Modes:\n- list: newest first, one per line\n- diff\n\n# Example\n```\na\n  b\n```"
        );
    }

    #[test]
    fn blank_doc_comments_count_as_missing() {
        let attrs: Vec<Attribute> = vec![syn::parse_quote!(#[doc = "   "])];
        assert_eq!(doc_lines(&attrs), None);
        let attrs: Vec<Attribute> = vec![syn::parse_quote!(#[doc = " Text."])];
        assert_eq!(doc_lines(&attrs), Some(vec![" Text.".to_owned()]));
    }

    #[test]
    fn an_empty_doc_line_separates_paragraphs() {
        let attrs: Vec<Attribute> = vec![
            syn::parse_quote!(#[doc = " First."]),
            syn::parse_quote!(#[doc = ""]),
            syn::parse_quote!(#[doc = " Second."]),
        ];
        let lines = doc_lines(&attrs).unwrap_or_default();
        assert_eq!(description(&lines), "First.\n\nSecond.");
    }

    #[test]
    fn summary_is_the_first_sentence() {
        assert_eq!(
            summary("Read a document's history. Lists revisions."),
            "Read a document's history."
        );
    }

    #[test]
    fn summary_without_a_period_is_the_first_line() {
        assert_eq!(summary("List the wikis\n\nMore."), "List the wikis");
        assert_eq!(summary("Ends with a period."), "Ends with a period.");
    }

    #[test]
    fn summary_skips_abbreviations() {
        assert_eq!(
            summary("Read a translation, e.g. fr or pt_BR. Then more."),
            "Read a translation, e.g. fr or pt_BR."
        );
        assert_eq!(summary("Compare A vs. B. More."), "Compare A vs. B.");
    }

    #[test]
    fn summary_stops_at_a_decimal_free_sentence_end_only() {
        assert_eq!(
            summary("Version 1.2 is read. Rest."),
            "Version 1.2 is read."
        );
    }
}
