//! `restore_document`: brings a deleted document back from the recycle bin (with every
//! translation, attachment and object it had), or one of its attachments deleted on its own,
//! through the write door.
//!
//! Order of checks: the write door (reach, view and edit, space filter, the configuration),
//! then the bin entry (the page's last deletion, or the one `entry` names, which must be of this
//! page), then the door's restore: a document that exists again is refused, the person is asked
//! when the call's writes must be confirmed, and the store moves everything back in one
//! transaction (refusing an entry someone restored meanwhile).

use mcp_runtime::output::guard::fragment;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::trash::{TrashEntry, TrashId};
use wiki_tool_sdk::store::rights::Right;

use crate::seams::deleted::deletion;
use crate::seams::written::Written;

/// Restore a deleted document from the recycle bin, with everything it held.
#[mcp_tool(
    id = "restore_document",
    write,
    additive,
    idempotent,
    output = Written,
    category = categories::AUTHORING,
    title = "Restore a deleted document",
    man = "NOTES
    Deleting a document (delete_document) moves it to the recycle bin with every translation,
    attachment, object and revision. Restoring moves all of it back: the page returns at the
    version it was deleted at, with its history, under its own name. Nothing is created or
    merged: when a page of that name exists again, the restore is refused and the deleted
    version stays in the bin (rename or delete the new page first).

    Without entry, the page's last deletion is restored. A page deleted, re-created and deleted
    again has one bin entry per deletion; entry=<id> (list_trash shows it) picks another one.
    entry also restores an attachment deleted on its own (delete_attachment) onto its
    document, which must exist: that saves a minor version of the document, as you.

    You need the view and edit rights on the page. Calling again after a restore changes
    nothing: the page exists, so it is refused. The result's version is the document's
    version now: pass it as base_version to change the page.

EXAMPLES
    restore_document reference=\"Sandbox.Draft\"
    restore_document reference=\"Sandbox.WebHome\" entry=42

SEE ALSO
    list_trash, delete_document, get_document, get_history"
)]
struct RestoreDocument {
    /// The deleted document.
    reference: String,
    /// A bin entry (list_trash) to restore instead of the last deletion.
    entry: Option<i64>,
    /// Another wiki (list_wikis).
    #[param(extended)]
    wiki: Option<String>,
}

impl Execute<Structured<Written>> for RestoreDocument {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<Written>> {
        let doors = ctx.doors()?;
        let door = doors.write()?;
        let target = door
            .target(&self.reference, self.wiki.as_deref(), None, Right::Edit)
            .await?;
        let entry = self.entry(doors, &target).await?;
        let restored = door.restore(&target, &entry).await?;
        let version = current_version(doors, &target)
            .await?
            .unwrap_or(restored.version);
        let page = fragment(&target.reference().to_string()).into_owned();
        let mut out = vec![match &restored.attachment {
            None => format!(
                "Restored document {page} from the recycle bin, with its translations, \
                 attachments and objects (it was {}).",
                deletion(&restored)
            ),
            Some(name) => format!(
                "Restored attachment {} onto {page} from the recycle bin (it was {}).",
                fragment(name),
                deletion(&restored)
            ),
        }];
        out.push(format!("Version: {version}"));
        let mut value = Written::restored(&target, version);
        if let Some(name) = &restored.attachment {
            value = value.attachment(name);
        }
        Ok(ToolOutput::text(out.join("\n")).structured(value))
    }
}

impl RestoreDocument {
    /// The bin entry to restore: the one `entry` names, or the page's last deletion.
    async fn entry(&self, doors: &Doors, target: &WriteTarget) -> Result<TrashEntry, ToolError> {
        let page = fragment(&target.reference().to_string()).into_owned();
        if let Some(id) = self.entry {
            let found = match id {
                1.. => doors.trash_entry(target.authorized(), TrashId(id)).await?,
                _ => None,
            };
            return found.ok_or_else(|| {
                ToolError::new(format!(
                    "Error: the recycle bin holds no entry {id} of \"{page}\". list_trash shows \
                     each entry's id and page. Nothing was restored."
                ))
                .with_kind(ErrorKind::NotFound)
            });
        }
        match doors.deleted_document(target.authorized()).await? {
            Some(entry) => Ok(entry),
            None if target.exists() => Err(ToolError::new(format!(
                "Error: \"{page}\" exists and the recycle bin holds no deletion of it: there is \
                 nothing to restore. Nothing was restored."
            ))
            .with_kind(ErrorKind::Conflict)),
            None => Err(ToolError::new(format!(
                "Error: \"{page}\" does not exist and is not in the recycle bin. list_trash \
                 lists what can be restored. Nothing was restored."
            ))
            .with_kind(ErrorKind::NotFound)),
        }
    }
}

/// The document's version after the restore (an attachment's restore saved a new one), or
/// `None` when it is gone again already.
async fn current_version(
    doors: &Doors,
    target: &WriteTarget,
) -> Result<Option<Version>, ToolError> {
    let reference = target.reference().clone();
    doors
        .blocking(move |store| store.document(&reference, None))
        .await?
        .map(|row| row.map(|row| row.version))
        .map_err(|error| store_failure("read the restored document", &error))
}
