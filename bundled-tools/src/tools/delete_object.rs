//! `delete_object`: deletes one object from a document as a minor version, through
//! the write door; the other objects keep their numbers.
//!
//! Order of checks: the write door (reach, view and edit, space filter, the configuration), the
//! class name (a contradicting wiki prefix, the sensitive classes), base_version (always
//! required) against the document as read, the object's existence (listing the existing
//! numbers), then the store's compare-and-set inside the deleting transaction.

use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::rights::Right;
use wiki_tool_sdk::untrusted::fragment;

use crate::seams::history::required_version;
use crate::seams::urls::review_line;
use crate::seams::write_params::DeleteParams;
use crate::seams::written::Written;
use crate::tools::write_object::{class_document, existing_object, object_failure};

/// Delete one object of a class from a document; the others keep their numbers.
#[mcp_tool(
    id = "delete_object",
    write,
    output = Written,
    confirm,
    category = categories::STRUCTURED_DATA,
    title = "Delete an object",
    man = "NOTES
    Deletes object number `object` of `class` from the document and saves a new minor version
    of the document, recorded as you with the comment prefixed `[AI] ` (default \"Deleted
    <class> object <n>\"). Object numbers are never reused or shifted: the other objects keep
    theirs. The document's history keeps the deleted object's values. Needs the edit right on
    the document.

    base_version is always required: the document's current version (get_document shows it).
    If someone saved since, nothing is deleted and you get a version conflict.

    Rights, groups, users and the MCP configuration classes are refused.

FORMAT
    Deleted Tasks.TaskClass object 1 from document main:Tasks.Task1.
    Version: 1.4 -> 1.5
    Compare: <url>

EXAMPLES
    delete_object reference=\"Tasks.Task1\" class=\"Tasks.TaskClass\" object=1 base_version=\"1.4\"

SEE ALSO
    query_objects, write_object, get_schema"
)]
struct DeleteObject {
    /// The document holding the object.
    reference: String,
    /// The class.
    class: String,
    /// The object's number (query_objects shows it).
    object: u32,
    #[param(flatten)]
    delete: DeleteParams,
}

impl Execute<Structured<Written>> for DeleteObject {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<Written>> {
        let base = required_version("base_version", &self.delete.base_version)?;
        let number = self.object;
        let door = ctx.doors()?.write()?;
        let target = door
            .target(
                &self.reference,
                self.delete.wiki.as_deref(),
                None,
                Right::Edit,
            )
            .await?;
        let class = class_document(&self.class, target.reference())?.local();
        let retry = "delete again with the document's version as base_version";
        let base = target.base(Some(base), BaseRule::Required, retry)?;
        existing_object(ctx, &target, &class, number).await?;
        let comment = Comment::new(
            self.delete.comment.as_deref(),
            &format!("Deleted {class} object {number}"),
        );
        let outcome = door
            .delete_object(&target, &class, number, comment, base)
            .await
            .map_err(object_failure)?;
        let mut lines = vec![
            format!(
                "Deleted {} object {number} from document {}.",
                fragment(&class),
                fragment(&target.reference().to_string())
            ),
            version_line(&outcome),
        ];
        lines.extend(review_line(ctx, &target, &outcome));
        let value = Written::saved(&target, &outcome).object(&class, number);
        Ok(ToolOutput::text(lines.join("\n")).structured(value))
    }
}
