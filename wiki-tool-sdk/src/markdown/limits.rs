//! What a page may be before it is rendered, checked BEFORE the expensive part runs.
//!
//! Rendering cost is not linear in the page: plain text indents every list item by its depth
//! (`- - - … x` 100,000 deep printed 10 GB of spaces), and the HTML sanitizer's tree builder
//! walks the stack of open elements for every tag (`<div>` 100,000 times took 21 s). Parsing the
//! Markdown is linear, so the checks run on the parser's events and on the HTML it produces,
//! before the plain-text writer or the sanitizer sees them:
//! - the source: at most `render_max_chars` characters;
//! - Markdown containers (lists and block quotes) nested at most `render_max_block_nesting` deep;
//! - HTML elements (generated and raw) open at most `render_max_html_nesting` deep, estimated by
//!   a linear scan that errs on the high side (an unclosed formatting element counts as open, as
//!   the tree builder reopens it).
//!
//! The bounds are the process's [`crate::budgets`] (`serve --render-max-*`); the constants here
//! are their defaults.
//!
//! A page past a bound is not an error: get_document and the signed view page show its source
//! instead, with a note that says which bound.

use std::fmt;

use pulldown_cmark::{Event, Tag, TagEnd};

use crate::budgets::budgets;

/// The default largest source rendered, in characters (the store accepts pages up to 1,000,000).
pub const MAX_RENDER_CHARS: usize = 500_000;

/// The default deepest nesting of lists and block quotes rendered (markdown-it's CommonMark preset
/// stops at 20; real pages rarely pass 6).
pub const MAX_BLOCK_NESTING: usize = 32;

/// The default deepest nesting of HTML elements sanitized: a list level is two elements (`ul`, `li`),
/// so 32 list levels with their paragraphs and inline markup fit.
pub const MAX_HTML_NESTING: usize = 128;

/// Why a page is not rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TooComplex {
    /// The source is longer than the budget.
    Size {
        /// The source's length in characters.
        chars: usize,
        /// The budget.
        limit: usize,
    },
    /// Lists or block quotes nest deeper than the budget.
    BlockNesting {
        /// The budget.
        limit: usize,
    },
    /// HTML elements nest deeper than the budget.
    HtmlNesting {
        /// The budget.
        limit: usize,
    },
}

impl fmt::Display for TooComplex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Size { chars, limit } => write!(
                f,
                "the page has {chars} characters, more than the {limit} the renderer accepts"
            ),
            Self::BlockNesting { limit } => write!(
                f,
                "its lists or block quotes nest more than {limit} levels deep, the renderer's \
                 limit"
            ),
            Self::HtmlNesting { limit } => write!(
                f,
                "its HTML elements nest more than {limit} levels deep, the \
                 sanitizer's limit"
            ),
        }
    }
}

/// Refuses a source longer than the process's `render_max_chars`, without counting past the
/// bound.
pub fn check_size(source: &str) -> Result<(), TooComplex> {
    size_within(source, budgets().render_max_chars)
}

fn size_within(source: &str, limit: usize) -> Result<(), TooComplex> {
    // A byte is at most one character: only a long text needs counting.
    if source.len() > limit && source.chars().nth(limit).is_some() {
        return Err(TooComplex::Size {
            chars: source.chars().count(),
            limit,
        });
    }
    Ok(())
}

/// Refuses events whose lists and block quotes nest deeper than the process's
/// `render_max_block_nesting`.
pub fn check_block_nesting(events: &[Event<'_>]) -> Result<(), TooComplex> {
    block_nesting_within(events, budgets().render_max_block_nesting)
}

fn block_nesting_within(events: &[Event<'_>], limit: usize) -> Result<(), TooComplex> {
    let mut depth = 0usize;
    for event in events {
        match event {
            Event::Start(Tag::List(_) | Tag::BlockQuote(_)) => {
                depth += 1;
                if depth > limit {
                    return Err(TooComplex::BlockNesting { limit });
                }
            }
            Event::End(TagEnd::List(_) | TagEnd::BlockQuote(_)) => {
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
    }
    Ok(())
}

/// Refuses HTML whose elements would nest deeper than the process's `render_max_html_nesting`
/// in the sanitizer's tree. Linear: the stack kept here never grows past the bound.
pub fn check_html_nesting(html: &str) -> Result<(), TooComplex> {
    html_nesting_within(html, budgets().render_max_html_nesting)
}

fn html_nesting_within(html: &str, limit: usize) -> Result<(), TooComplex> {
    let mut open: Vec<String> = Vec::new();
    // Formatting elements closed by something else are reopened by the tree builder.
    let mut reopened = 0usize;
    let bytes = html.as_bytes();
    let mut at = 0;
    while let Some(found) = next_lt(bytes, at) {
        at = found + 1;
        let rest = &html[at..];
        if let Some(comment) = rest.strip_prefix("!--") {
            at += 3 + comment.find("-->").map_or(comment.len(), |end| end + 3);
            continue;
        }
        let closing = rest.starts_with('/');
        let name_start = usize::from(closing);
        let name: String = rest[name_start..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if name.is_empty() || !rest[name_start..].starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue;
        }
        let tag_end = tag_end(&rest[name_start + name.len()..]);
        let self_closing = tag_end.is_some_and(|(_, slash)| slash);
        at += name_start + name.len() + tag_end.map_or(0, |(length, _)| length);
        if closing {
            close(&mut open, &mut reopened, &name);
        } else if !VOID_ELEMENTS.contains(&name.as_str()) && !self_closing {
            if IMPLICITLY_CLOSED.contains(&name.as_str())
                && open.last().is_some_and(|top| *top == name)
            {
                open.pop();
            }
            open.push(name);
        }
        if open.len() + reopened > limit {
            return Err(TooComplex::HtmlNesting { limit });
        }
    }
    Ok(())
}

/// An end tag closes the innermost open element of its name and everything inside it; the
/// formatting elements it closes that way count as reopened. An end tag with no open element
/// of its name is ignored, as the tree builder does.
fn close(open: &mut Vec<String>, reopened: &mut usize, name: &str) {
    let Some(position) = open.iter().rposition(|open| open == name) else {
        return;
    };
    *reopened += open
        .iter()
        .skip(position + 1)
        .filter(|inner| FORMATTING_ELEMENTS.contains(&inner.as_str()))
        .count();
    open.truncate(position);
}

/// The next `<` at or after `at`.
fn next_lt(bytes: &[u8], at: usize) -> Option<usize> {
    bytes
        .get(at..)?
        .iter()
        .position(|&b| b == b'<')
        .map(|offset| at + offset)
}

/// After a tag's name: the length up to and including its `>` (quoted attribute values may
/// hold `>`), and whether it ends with `/>`; `None` when the text ends first.
fn tag_end(after_name: &str) -> Option<(usize, bool)> {
    let mut quote: Option<char> = None;
    let mut previous = ' ';
    for (index, c) in after_name.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => return Some((index + 1, previous == '/')),
            (None, '<') => return Some((index, false)),
            _ => {}
        }
        previous = c;
    }
    None
}

/// Elements that never have content (HTML's void elements).
const VOID_ELEMENTS: [&str; 15] = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param",
    "source", "track", "wbr",
];

/// Elements a start tag of the same name closes (the common optional end tags).
const IMPLICITLY_CLOSED: [&str; 9] = ["p", "li", "dt", "dd", "option", "tr", "td", "th", "rt"];

/// The formatting elements the tree builder reopens after a misnested end tag.
const FORMATTING_ELEMENTS: [&str; 14] = [
    "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u",
];

#[cfg(test)]
mod tests {
    use pulldown_cmark::Parser;

    use super::*;
    use crate::markdown::options as markdown_options;

    fn events(source: &str) -> Vec<Event<'_>> {
        Parser::new_ext(source, markdown_options()).collect()
    }

    #[test]
    fn lists_and_quotes_nest_up_to_the_bound() {
        let at_bound = format!("{}x", "- ".repeat(MAX_BLOCK_NESTING));
        assert_eq!(check_block_nesting(&events(&at_bound)), Ok(()));
        let past = format!("{}x", "- ".repeat(MAX_BLOCK_NESTING + 1));
        assert_eq!(
            check_block_nesting(&events(&past)),
            Err(TooComplex::BlockNesting {
                limit: MAX_BLOCK_NESTING
            })
        );
        let quotes = format!("{}x", "> ".repeat(MAX_BLOCK_NESTING + 1));
        assert_eq!(
            check_block_nesting(&events(&quotes)),
            Err(TooComplex::BlockNesting {
                limit: MAX_BLOCK_NESTING
            })
        );
        // Many siblings are not depth.
        let siblings = "- a\n".repeat(10_000);
        assert_eq!(check_block_nesting(&events(&siblings)), Ok(()));
    }

    #[test]
    fn html_nesting_counts_open_elements() {
        assert_eq!(
            check_html_nesting(&"<div>".repeat(MAX_HTML_NESTING)),
            Ok(())
        );
        assert_eq!(
            check_html_nesting(&"<div>".repeat(MAX_HTML_NESTING + 1)),
            Err(TooComplex::HtmlNesting {
                limit: MAX_HTML_NESTING
            })
        );
        // Closed, void, self-closing, implicitly closed and commented tags are not depth.
        let flat = "<div><p>a</p><br><img src=\"x>y\"/><p>b<p>c<li>d<li>e<!-- <div><div> --></div>"
            .repeat(1_000);
        assert_eq!(check_html_nesting(&flat), Ok(()));
        // End tags close everything inside the element they name.
        let closed = format!("<section>{}</section>", "<div>".repeat(100)).repeat(100);
        assert_eq!(check_html_nesting(&closed), Ok(()));
        // A formatting element closed by its parent is reopened: it still counts.
        let reopened = "<p><b>x</p>".repeat(MAX_HTML_NESTING + 1);
        assert_eq!(
            check_html_nesting(&reopened),
            Err(TooComplex::HtmlNesting {
                limit: MAX_HTML_NESTING
            })
        );
        // Text that only looks like tags is not counted.
        assert_eq!(check_html_nesting(&"a < b <3 </ ".repeat(1_000)), Ok(()));
    }

    #[test]
    fn a_smaller_budget_is_the_bound_the_refusal_names() {
        let four = format!("{}x", "- ".repeat(4));
        assert_eq!(block_nesting_within(&events(&four), 4), Ok(()));
        let refused = block_nesting_within(&events(&four), 3).map_err(|why| why.to_string());
        assert_eq!(
            refused,
            Err(
                "its lists or block quotes nest more than 3 levels deep, the renderer's limit"
                    .to_owned()
            )
        );
        assert_eq!(
            size_within("abcdef", 5),
            Err(TooComplex::Size { chars: 6, limit: 5 })
        );
        assert_eq!(
            html_nesting_within("<div><div>", 1),
            Err(TooComplex::HtmlNesting { limit: 1 })
        );
    }

    #[test]
    fn size_is_counted_in_characters() {
        assert_eq!(check_size(&"é".repeat(MAX_RENDER_CHARS)), Ok(()));
        assert_eq!(
            check_size(&"x".repeat(MAX_RENDER_CHARS + 1)),
            Err(TooComplex::Size {
                chars: MAX_RENDER_CHARS + 1,
                limit: MAX_RENDER_CHARS
            })
        );
    }
}
