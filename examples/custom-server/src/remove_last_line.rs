//! `remove_last_line`: a write tool declared `confirm`, removing the last line of an existing
//! document (undoing an `append_note`, for instance).
//!
//! Removing text cannot be undone by the agent that did it, so the tool is declared `confirm`:
//! the write door asks the person using the caller's client first, in words it writes itself
//! from the change ("replace 45 characters of main:Sandbox.WebHome (version 1.1) with 32
//! characters"), and the tool writes nothing unless they accept (a client that cannot ask is
//! refused). The
//! tool asks nothing itself: declaring `confirm` and saving through the write door is all it
//! takes. As with `append_note`, the door checks view and edit rights, refuses the server's
//! own configuration, records the save as the caller, and compares-and-sets on the version
//! the line was removed from.

use mcp_runtime::output::guard::fragment;
use wiki_tool_sdk::prelude::*;

/// The version comment of every save (the door adds the `[AI] ` prefix).
const COMMENT: &str = "Removed the last line";

/// Remove the last line of an existing document.
///
/// Trailing blank lines are dropped with it. The person using your client is asked to confirm
/// first; nothing is saved if they decline or the client cannot ask. Saved as a minor version
/// recorded as you, with the comment `[AI] Removed the last line`.
#[mcp_tool(
    id = "remove_last_line",
    write,
    confirm,
    category = "Notes",
    title = "Remove the last line of a document"
)]
pub struct RemoveLastLine {
    /// The document to remove the last line of, e.g. "Sandbox.WebHome".
    reference: String,
    /// The wiki to write in instead of this endpoint's wiki (see list_wikis).
    #[param(extended)]
    wiki: Option<String>,
}

impl Execute for RemoveLastLine {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        let door = ctx.doors()?.write()?;
        let target = door
            .target(&self.reference, self.wiki.as_deref(), None, Right::Edit)
            .await?;
        let reference = target.reference().to_string();
        let shown = fragment(&reference);
        let Some(current) = target.current() else {
            return Err(ToolError::new(format!(
                "Error: the document \"{shown}\" does not exist."
            )));
        };
        let Some((kept, removed)) = without_last_line(&current.content) else {
            return Err(ToolError::new(format!(
                "Error: the document \"{shown}\" has no line to remove (it is empty). Nothing \
                 was saved."
            )));
        };
        let removed = fragment(removed).into_owned();
        let base = target.base(None, BaseRule::OptionalLock, "call remove_last_line again")?;
        let change = RowChange {
            content: kept,
            title: None,
            major: false,
        };
        // The door asks the person here (the tool is `confirm`), before anything is written.
        let outcome = door
            .save(&target, change, Comment::new(None, COMMENT), base)
            .await?;
        Ok(ToolOutput::text(format!(
            "Removed the last line of {shown}: \"{removed}\".\n{}",
            version_line(&outcome)
        )))
    }
}

/// The content without its last non-blank line (and the blank lines after it), ending with a
/// line feed unless nothing is left, and the line removed; `None` when every line is blank.
fn without_last_line(content: &str) -> Option<(String, &str)> {
    let trimmed = content.trim_end();
    if trimmed.is_empty() {
        return None;
    }
    let (kept, last) = match trimmed.rsplit_once('\n') {
        Some((before, last)) => (format!("{before}\n"), last),
        None => (String::new(), trimmed),
    };
    Some((kept, last))
}

#[cfg(test)]
mod tests {
    use super::without_last_line;

    #[test]
    fn the_last_non_blank_line_goes_with_the_blank_lines_after_it() {
        assert_eq!(
            without_last_line("a\nb\n\n  \n"),
            Some(("a\n".to_owned(), "b"))
        );
        assert_eq!(without_last_line("a\r\nb"), Some(("a\r\n".to_owned(), "b")));
        assert_eq!(without_last_line("only"), Some((String::new(), "only")));
        assert_eq!(without_last_line(" \n\n"), None);
    }
}
