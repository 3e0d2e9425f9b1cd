//! `delete_attachment`: moves one attachment, every version of it, to the recycle
//! bin, saving a minor version of its document, through the write door.
//!
//! Order of checks: the file name argument, the write door (reach, view and edit, space filter,
//! the configuration), base_version (always required) against the document as read, the
//! attachment's existence, then the store's compare-and-set inside the deleting transaction.

use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::rights::Right;
use wiki_tool_sdk::store::{Entity, StoreError};
use wiki_tool_sdk::untrusted::fragment;

use crate::seams::history::required_version;
use crate::seams::urls::review_line;
use crate::seams::write_params::DeleteParams;
use crate::seams::written::Written;

/// Move an attachment of a document to the recycle bin (restore_document brings it back).
#[mcp_tool(
    id = "delete_attachment",
    write,
    output = Written,
    confirm,
    category = categories::AUTHORING,
    title = "Delete an attachment",
    man = "NOTES
    The attachment, with all its versions, moves to the wiki's recycle bin; nothing is deleted
    permanently: restore_document reference=<document> entry=<id> (list_trash shows the id)
    brings it back. The document gets a new minor version
    recorded as you, with the comment prefixed `[AI] ` (default \"Deleted attachment
    <filename>\").

    base_version is always required: the document's current version (get_document shows it).
    If someone saved the document since, nothing is deleted and you get a version conflict.
    Deleting needs the edit right on the document.

FORMAT
    Deleted attachment <filename> from document <ref> (moved to the recycle bin).
    Version: 2.4 -> 2.5
    Compare: <url>

EXAMPLES
    delete_attachment reference=\"Sandbox.WebHome\" filename=\"old.txt\" base_version=\"2.4\"

SEE ALSO
    get_attachment, write_attachment, get_document"
)]
struct DeleteAttachment {
    /// The document holding it.
    reference: String,
    /// The file name.
    #[param(raw)]
    filename: String,
    #[param(flatten)]
    delete: DeleteParams,
}

impl Execute<Structured<Written>> for DeleteAttachment {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<Written>> {
        let base = required_version("base_version", &self.delete.base_version)?;
        let door = ctx.doors()?.write()?;
        let target = door
            .target(
                &self.reference,
                self.delete.wiki.as_deref(),
                None,
                Right::Edit,
            )
            .await?;
        let retry = "delete again with the document's version as base_version";
        let base = target.base(Some(base), BaseRule::Required, retry)?;
        let comment = Comment::new(
            self.delete.comment.as_deref(),
            &format!("Deleted attachment {}", self.filename),
        );
        let deleted = door
            .delete_attachment(&target, &self.filename, comment, base)
            .await
            .map_err(|failure| match failure.store_error() {
                Some(StoreError::NotFound {
                    entity: Entity::Attachment,
                    ..
                }) => ToolError::new(format!(
                    "Error: the {} has no attachment \"{}\" (get_document lists its \
                     attachments). Nothing was changed.",
                    target.row_name(),
                    fragment(&self.filename)
                ))
                .with_kind(ErrorKind::NotFound),
                _ => failure.into(),
            })?;
        let mut lines = vec![
            format!(
                "Deleted attachment {} from document {} (moved to the recycle bin as entry {}: \
                 restore_document with entry={} brings it back).",
                fragment(&self.filename),
                fragment(&target.reference().to_string()),
                deleted.trash,
                deleted.trash
            ),
            version_line(&deleted.document),
        ];
        lines.extend(review_line(ctx, &target, &deleted.document));
        let value = Written::saved(&target, &deleted.document).attachment(&self.filename);
        Ok(ToolOutput::text(lines.join("\n")).structured(value))
    }
}
