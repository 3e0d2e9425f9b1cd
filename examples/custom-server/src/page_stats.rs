//! `page_stats`: the counts of one document's source, read through the doors.

use mcp_runtime::output::guard::fragment;
use wiki_tool_sdk::prelude::*;

/// Count the words, lines and Markdown headings of a document.
///
/// Words are runs of letters, digits and apostrophes; a heading is a line starting with `#`.
#[mcp_tool(id = "page_stats", category = "Notes", title = "Document statistics")]
pub struct PageStats {
    /// The document to measure, e.g. "Sandbox.WebHome".
    reference: String,
    /// The wiki to read in instead of this endpoint's wiki (see list_wikis).
    #[param(extended)]
    wiki: Option<String>,
}

impl Execute for PageStats {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        let doors = ctx.doors()?;
        // The door: reach, the caller's view right, the space filter; only then does the store
        // say whether the document exists.
        let authorized = doors.authorize(&self.reference, self.wiki.as_deref(), Right::View)?;
        let document = doors.read_document(&authorized, None).await?;
        Ok(ToolOutput::text(report(&document)))
    }
}

fn report(document: &Document) -> String {
    let content = &document.content;
    let words = content
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|word| !word.trim_matches('\'').is_empty())
        .count();
    let headings = content
        .lines()
        .filter(|line| line.trim_start().starts_with('#'))
        .count();
    format!(
        "Document: {}\nVersion: {}\nLines: {}\nWords: {words}\nHeadings: {headings}",
        fragment(&document.reference.to_string()),
        document.version,
        content.lines().count(),
    )
}
