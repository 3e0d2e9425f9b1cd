//! `append_note`: a write tool, adding one line at the end of an existing document.
//!
//! Every step a write owes the wiki is here, in the order that reveals nothing: the caller must
//! VIEW the document and EDIT it (both through the door, which answers the same whether the page
//! exists or not), the server's own MCP configuration is refused whoever asks, the save is
//! recorded as the caller with an `[AI] ` comment, and it is a compare-and-set on the version
//! the note was appended to, so a concurrent edit is never overwritten.

use mcp_runtime::output::guard::fragment;
use wiki_server::prelude::*;
use wiki_server::store::model::document::{DocumentSave, Expected, SaveOutcome};
use wiki_server::store::model::mcp_config::{MCP_CONFIG_CLASS, MCP_CONFIG_DOCUMENT};

/// The longest note, in characters.
const MAX_NOTE_CHARS: usize = 1000;

/// The version comment of every save (the `[AI] ` prefix marks what agents wrote).
const COMMENT: &str = "[AI] Appended a note";

/// Append one line of text at the end of an existing document.
///
/// The document must exist; the note is added as its last line and saved as a minor version
/// recorded as you, with the comment "[AI] Appended a note".
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
    #[param(cross_wiki)]
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
        let doors = ctx.doors()?;
        let wiki = self.wiki.as_deref();
        // View first: a page the caller cannot view is refused the same way whether it exists
        // or not, before anything about it (existence, version, content) is read.
        doors.authorize(&self.reference, wiki, Right::View)?;
        let authorized = doors.authorize(&self.reference, wiki, Right::Edit)?;
        let reference = authorized.reference().clone();
        refuse_configuration(&reference)?;
        let document = doors.read_document(&authorized, None).await?;

        let mut content = document.content;
        if !content.is_empty() && !content.ends_with('\n') {
            content.push('\n');
        }
        content.push_str(note);
        content.push('\n');
        let save = DocumentSave::new(reference.clone(), content, ctx.principal_name())
            .comment(COMMENT)
            .expected(Expected::Version(document.version));
        let saved = doors
            .blocking(move |store| store.save_document(&save))
            .await?;
        let reference = reference.to_string();
        let shown = fragment(&reference);
        match saved {
            Ok(SaveOutcome::Updated { previous, version }) => Ok(ToolOutput::text(format!(
                "Appended a note to {shown}.\nVersion: {previous} -> {version}"
            ))),
            Ok(SaveOutcome::Created { version } | SaveOutcome::Unchanged { version }) => Ok(
                ToolOutput::text(format!("Appended a note to {shown}.\nVersion: {version}")),
            ),
            Err(StoreError::VersionConflict { .. }) => Err(ToolError::new(format!(
                "Error: {shown} was changed by someone else while the note was being added. \
                 Nothing was saved; call append_note again."
            ))),
            Err(error) => Err(store_failure("save the document", &error)),
        }
    }
}

/// The documents holding this server's MCP configuration are changed by the configuration
/// commands alone, never by a tool, whoever calls it.
fn refuse_configuration(reference: &DocumentReference) -> Result<(), ToolError> {
    let local = reference.local();
    if local == MCP_CONFIG_DOCUMENT || local == MCP_CONFIG_CLASS {
        return Err(ToolError::new(format!(
            "Error: \"{}\" holds this server's MCP configuration; write tools never change it \
             (an administrator uses the configuration commands). Nothing was saved.",
            fragment(&reference.to_string())
        )));
    }
    Ok(())
}
