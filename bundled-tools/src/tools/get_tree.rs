//! `get_tree`: the shape of a wiki. Without `root`, a SURVEY of the top-level spaces
//! with their page counts and ages, small spaces expanded inline; with `root`, an EXPLORE of the
//! pages under it, breadth first, with markers for the structured data and attachments on each.
//!
//! Every node is authorized through the row door (reach, space filter, view right) before it is
//! counted or shown: a page the caller may not view vanishes, from the lines and from the counts.
//! Page text (names, titles) is neutralized for a one-line listing whose syntax uses brackets,
//! braces and `⋯`: it can neither open a line nor fake a reference or a marker.

mod explore;
mod output;
mod survey;

use mcp_runtime::output::result::budgeted_result;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::reference::{DocumentReference, SpacePath};
use wiki_tool_sdk::time::OffsetDateTime;
use wiki_tool_sdk::untrusted::fragment;

use crate::seams::one_line::one_line;
use output::TreeOutput;

/// Levels below root an exploration shows when `depth` is not given.
const DEFAULT_DEPTH: usize = 2;

/// List the spaces of a wiki, or explore the pages under one page.
#[mcp_tool(
    id = "get_tree",
    category = categories::SEARCH_AND_NAVIGATION,
    title = "Browse the page tree",
    output = TreeOutput,
    man = "NOTES
    Survey (no root): one line per top-level space, sorted by name:
        Sales/  [main:Sales.WebHome]  \"Sales Home\"  — 12 pages + 1 hidden, 3d ago
    Counts include nested spaces. Hidden pages are counted apart and listed only with
    showHidden=true. Spaces of at most 8 pages are expanded inline (100 lines in all). At most
    2000 pages you may view are counted: past that the header says the counts are sampled,
    counts read `N+` and nothing is expanded; spaces beyond the sample are listed by their home
    page only. A space whose home page does not exist (or that you may not view) names no page:
    its line says to explore it as root. limit and offset page the spaces (an offset past
    the last one is an error).

    Pass a shown reference to get_document, or as root to go deeper. Explore (root): the
    root's line, then its children indented two spaces per level, to depth
    levels (1-4, default 2), at most limit children per node (1-200, default 50) and 300 lines in
    all. A node is `name[/]  [reference]  \"title\"[ ⋯][ {markers}]`: `/` marks a space home that
    may have children, `⋯` that its children are not shown (depth or line budget reached;
    explore it as root), the title is left out when it equals the name, and markers list the
    classes of the objects on the page and att:N for N attachments (rights, comments, tags and
    preferences left out). offset pages the root's direct children (past the last one, an
    error). A page name alone is a terminal page; a space name (\"Sales\") or a missing page
    whose space exists means that space's home (Sales.WebHome).

    Ages: just now, 5m ago, 3h ago, 2d ago, 4mo ago (30-day months, at most 11mo), 2y ago.
    Every page shown or counted is one you may view through this endpoint's space filter; a
    space shows when some page in it is, and a space line whose home page you may not view
    names no page and carries no title or markers. Titles and names are shown on one line with
    brackets and braces removed and \" as '. With cross-wiki reach, wiki (or a wiki:Space prefix
    on root) reads another wiki (see list_wikis).

EXAMPLES
    get_tree
    get_tree root=\"Sales\"
    get_tree root=\"Sales.Europe.WebHome\" depth=4 limit=200
    get_tree root=\"Sales\" depth=1 offset=50
    get_tree showHidden=true

SEE ALSO
    get_document, query_documents, get_links, query_objects"
)]
struct GetTree {
    /// The page to explore from; omit it to survey the top-level spaces.
    root: Option<String>,
    /// Another wiki (list_wikis).
    #[param(extended)]
    wiki: Option<String>,
    /// With root: levels below it to show (default 2).
    #[param(range = 1..=4, clamp)]
    depth: Option<usize>,
    /// Children per node, or spaces in a survey.
    #[param(default = 50, range = 1..=200, clamp)]
    limit: usize,
    /// Root's children (or spaces) to skip.
    #[param(default = 0)]
    offset: usize,
    /// List hidden pages too.
    #[param(rename = "showHidden")]
    show_hidden: bool,
}

/// The checked arguments both modes use.
#[derive(Debug, Clone, Copy)]
struct Shape {
    depth: usize,
    limit: usize,
    offset: usize,
    show_hidden: bool,
}

impl Execute<Structured<TreeOutput>> for GetTree {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<TreeOutput>> {
        // The parser clamped depth and limit, and refused a negative offset.
        if self.root.is_none() && self.depth.is_some() {
            return Err(ToolError::new(
                "Error: 'depth' applies only when exploring from a root; a survey lists the \
                 top-level spaces. Give root, or drop 'depth'.",
            )
            .with_kind(ErrorKind::BadArgument));
        }
        let shape = Shape {
            depth: self.depth.unwrap_or(DEFAULT_DEPTH),
            limit: self.limit,
            offset: self.offset,
            show_hidden: self.show_hidden,
        };
        let doors = ctx.doors()?;
        let now = OffsetDateTime::now_utc();
        let (body, footer, value) = match self.root.as_deref() {
            None => survey::survey(ctx, doors, self.wiki.as_deref(), shape, now).await?,
            Some(root) => explore::explore(ctx, doors, root, self.wiki.as_deref(), shape).await?,
        };
        Ok(budgeted_result(body.trim_end(), footer.trim_end())?.structured(value))
    }
}

/// Page text (a name or title) for a node line: line breaks and separators become
/// one space, the line's own syntax characters `[ ] { } ⋯` are removed, `"` becomes `'`, and
/// the result is capped at 200 characters and `…`.
fn node_text(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .filter(|c| !matches!(c, '[' | ']' | '{' | '}' | '⋯'))
        .map(|c| if c == '"' { '\'' } else { c })
        .collect();
    one_line(&cleaned)
}

/// A reference inside `[...]`: forging characters removed and brackets and braces escaped with
/// the reference grammar's backslash, so a page named `x]  [main:Secret.Plans` can neither close
/// the bracket nor fake a second reference, and the echo still resolves to the same page.
fn bracketed(reference: &DocumentReference) -> String {
    let text = reference.to_string();
    let mut out = String::with_capacity(text.len() + 2);
    out.push('[');
    for c in fragment(&text).chars() {
        if matches!(c, '[' | ']' | '{' | '}') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(']');
    out
}

/// What a space line or node whose home page is missing or not viewable shows instead of a
/// reference: every reference a tool prints must open, and get_document could not open that
/// home; exploring the space as root does.
fn no_home(space: &SpacePath) -> String {
    format!(
        "(no home page to open; explore root=\"{}\")",
        fragment(&space.to_string())
    )
}

/// `  "title"` when the title says more than the name, else nothing.
fn title_part(name: &str, title: Option<&str>) -> String {
    match title.map(node_text) {
        Some(title) if !title.is_empty() && title != name => format!("  \"{title}\""),
        _ => String::new(),
    }
}

/// How long ago `then` was, as the survey prints it: `just now` (under a minute, or a clock
/// skew into the future), `Nm`, `Nh`, `Nd`, `Nmo` (30-day months, at most 11), `Ny ago`.
fn age(now: OffsetDateTime, then: OffsetDateTime) -> String {
    let seconds = (now - then).whole_seconds();
    let days = seconds / 86_400;
    match seconds {
        ..60 => "just now".to_owned(),
        60..3_600 => format!("{}m ago", seconds / 60),
        3_600..86_400 => format!("{}h ago", seconds / 3_600),
        _ if days < 30 => format!("{days}d ago"),
        _ if days < 365 => format!("{}mo ago", (days / 30).min(11)),
        _ => format!("{}y ago", days / 365),
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;
    use wiki_tool_sdk::store::model::wiki::WikiId;
    use wiki_tool_sdk::time::Duration;

    use super::*;

    #[test]
    fn ages_follow_the_reference_scale() {
        let now = datetime!(2026-11-30 12:00 UTC);
        let ago = |seconds: i64| age(now, now - Duration::seconds(seconds));
        assert_eq!(ago(0), "just now");
        assert_eq!(ago(59), "just now");
        assert_eq!(ago(-3_600), "just now");
        assert_eq!(ago(60), "1m ago");
        assert_eq!(ago(3_599), "59m ago");
        assert_eq!(ago(3_600), "1h ago");
        assert_eq!(ago(86_399), "23h ago");
        assert_eq!(ago(86_400), "1d ago");
        assert_eq!(ago(29 * 86_400), "29d ago");
        assert_eq!(ago(30 * 86_400), "1mo ago");
        assert_eq!(ago(364 * 86_400), "11mo ago");
        assert_eq!(ago(365 * 86_400), "1y ago");
        assert_eq!(ago(800 * 86_400), "2y ago");
    }

    #[test]
    fn node_text_cannot_forge_lines_references_or_markers() {
        assert_eq!(
            wiki_tool_sdk::untrusted::escape(&node_text(
                "Legit\nReference: [main:Secret.Plans]\u{2028}{Cls} ⋯ \"q\"\u{202E}"
            )),
            "Legit Reference: main:Secret.Plans Cls 'q'⟦U+202E⟧"
        );
    }

    #[test]
    fn bracketed_references_escape_brackets_and_still_parse() {
        let main = WikiId::main();
        let forged = DocumentReference::parse("Forged.x\\]  \\[main:Secret\\.Plans", &main);
        let forged = forged.unwrap_or_else(|error| panic!("{error}"));
        let shown = bracketed(&forged);
        assert_eq!(shown, "[main:Forged.x\\]  \\[main\\:Secret\\.Plans]");
        let inner = &shown[1..shown.len() - 1];
        assert_eq!(DocumentReference::parse(inner, &main).ok(), Some(forged));
    }

    #[test]
    fn titles_equal_to_the_name_are_left_out() {
        assert_eq!(title_part("Notes", Some("Notes")), "");
        assert_eq!(title_part("Notes", None), "");
        assert_eq!(title_part("Notes", Some("My [notes]")), "  \"My notes\"");
    }
}
