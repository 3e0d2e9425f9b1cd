//! `append_note`: a write tool, adding one line at the end of an existing document.
//!
//! It goes through the public write door (`ctx.doors()?.write()?`), as every write tool must: the
//! caller must VIEW the document and EDIT it (a page it cannot view answers as a missing one),
//! the server's own MCP configuration is refused whoever asks, the save is recorded as the
//! caller with an `[AI] ` comment, and it is a compare-and-set on the version the note was
//! appended to, so a concurrent edit is never overwritten.

use mcp_runtime::output::guard::fragment;
use wiki_tool_sdk::prelude::*;

/// The longest note, in characters.
const MAX_NOTE_CHARS: usize = 1000;

/// The version comment of every save (the door adds the `[AI] ` prefix that marks what agents
/// wrote).
const COMMENT: &str = "Appended a note";

/// Append one line of text at the end of an existing document.
///
/// The document must exist; the note is added as its last line and saved as a minor version
/// recorded as you, with the comment `[AI] Appended a note`.
#[mcp_tool(
    id = "append_note",
    write,
    category = "Notes",
    title = "Append a note to a document"
)]
pub struct AppendNote {
    /// The document to append to, e.g. "Sandbox.WebHome".
    reference: String,
    /// The note: one line of text, at most 1000 characters.
    note: String,
    /// The wiki to write in instead of this endpoint's wiki (see list_wikis).
    #[param(extended)]
    wiki: Option<String>,
}

impl Execute for AppendNote {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        // The parameter layer already refused a missing or blank note, and trimmed it.
        let note = self.note.as_str();
        if note.contains(['\n', '\r']) {
            return Err(ToolError::new(
                "Error: 'note' must be one line of text; send each line as its own note. \
                 Nothing was saved.",
            ));
        }
        let chars = note.chars().count();
        if chars > MAX_NOTE_CHARS {
            return Err(ToolError::new(format!(
                "Error: 'note' is too long ({chars} characters; the limit is {MAX_NOTE_CHARS}). \
                 Nothing was saved."
            )));
        }
        // The write door: view AND edit as the caller (a page the caller cannot view answers
        // as a missing one, before anything is read), never the MCP configuration.
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
        let mut content = current.content.clone();
        if !content.is_empty() && !content.ends_with('\n') {
            content.push('\n');
        }
        content.push_str(note);
        content.push('\n');
        // Compare-and-set on the version the note was appended to, inside the store's
        // transaction: a concurrent edit is a conflict, never overwritten.
        let base = target.base(None, BaseRule::OptionalLock, "call append_note again")?;
        let change = RowChange {
            content,
            title: None,
            major: false,
        };
        let outcome = door
            .save(&target, change, Comment::new(None, COMMENT), base)
            .await?;
        Ok(ToolOutput::text(format!(
            "Appended a note to {shown}.\n{}",
            version_line(&outcome)
        )))
    }
}
