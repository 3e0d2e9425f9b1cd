//! Restoring from the recycle bin through the door: a deleted document (with every translation,
//! attachment and object it had), or an attachment deleted on its own, back where it was.
//!
//! The target is resolved for edit like any write (view and edit on the page, the
//! configuration refused), the entry must belong to it, the person is asked when the call's
//! writes must be confirmed, and the store moves the rows back in one transaction, refusing a
//! document that exists again or an entry someone else restored meanwhile.

use mcp_runtime::output::guard::fragment;
use mcp_runtime::prelude::{ErrorKind, ToolError};
use wiki_store::model::trash::TrashEntry;
use wiki_store::rights::Right;
use wiki_store::{Entity, StoreError};

use super::{WriteDoor, WriteFailure, WriteTarget, proposal, require};
use crate::access::{store_failure, transient_failure};
use crate::instant::utc_minute;

impl WriteDoor<'_> {
    /// Restores `entry` (read through [`crate::access::Doors::trash_entry`] or
    /// [`crate::access::Doors::deleted_document`]) onto the target, resolved for edit: a whole
    /// document, refused while a document exists at its reference; or an attachment, onto the
    /// existing document, which gets a minor version by the caller. A restored document keeps
    /// its history and comes back at the version it was deleted at.
    pub async fn restore(
        &self,
        target: &WriteTarget,
        entry: &TrashEntry,
    ) -> Result<TrashEntry, WriteFailure> {
        require(target, Right::Edit)?;
        if entry.reference != *target.reference() {
            return Err(ToolError::new(format!(
                "Error: recycle bin entry {} is not a deletion of \"{}\". list_trash shows each \
                 entry's page. Nothing was restored.",
                entry.id,
                fragment(&target.reference().to_string())
            ))
            .with_kind(ErrorKind::BadArgument)
            .into());
        }
        match (&entry.attachment, target.exists()) {
            (None, true) => return Err(exists_again(target, entry).into()),
            (Some(name), false) => {
                return Err(ToolError::new(format!(
                    "Error: the attachment {} belongs to \"{}\", which does not exist now. \
                     Restore the document first (restore_document without 'entry'). Nothing was \
                     restored.",
                    fragment(name),
                    fragment(&target.reference().to_string())
                ))
                .with_kind(ErrorKind::NotFound)
                .into());
            }
            _ => {}
        }
        if let Some(confirmation) = self.doors.confirmation.as_deref() {
            // Bound to the entry: a yes for one deletion does not restore another.
            let base = format!("bin:{}", entry.id);
            confirmation
                .ask(&proposal::restore(target, entry), &base)
                .await?;
        }
        let id = entry.id;
        let author = self.author().to_owned();
        self.doors
            .with_store(move |store| store.restore(id, &author))
            .await?
            .map_err(|error| {
                let message = describe(target, entry, &error);
                WriteFailure::worded(error, message)
            })
    }
}

/// The refusal of a document restore while a document of that name exists.
fn exists_again(target: &WriteTarget, entry: &TrashEntry) -> ToolError {
    ToolError::new(format!(
        "Error: \"{}\" exists again (someone created a page of that name after it was deleted \
         on {}). Nothing was restored; the deleted version stays in the recycle bin (entry \
         {}). Rename or delete the new page first, or copy what you need from it.",
        fragment(&target.reference().to_string()),
        utc_minute(entry.deleted),
        entry.id
    ))
    .with_kind(ErrorKind::Conflict)
}

/// The store's refusal of a restore, as the agent reads it.
fn describe(target: &WriteTarget, entry: &TrashEntry, error: &StoreError) -> ToolError {
    let verb = "restore from the recycle bin";
    match error {
        StoreError::NotFound {
            entity: Entity::TrashEntry,
            ..
        } => ToolError::new(format!(
            "Error: recycle bin entry {} is gone: someone restored it (or emptied the bin) \
             meanwhile. get_document reference=\"{}\" shows whether the page is back. Nothing \
             was restored.",
            entry.id,
            fragment(&target.reference().to_string())
        ))
        .with_kind(ErrorKind::NotFound),
        StoreError::AlreadyExists {
            entity: Entity::Document,
            ..
        } => exists_again(target, entry),
        StoreError::AlreadyExists {
            entity: Entity::Attachment,
            ..
        } => ToolError::new(format!(
            "Error: \"{}\" has an attachment named {} again. Nothing was restored; delete or \
             rename that attachment first.",
            fragment(&target.reference().to_string()),
            fragment(entry.attachment.as_deref().unwrap_or_default())
        ))
        .with_kind(ErrorKind::Conflict),
        StoreError::NotFound {
            entity: Entity::Document,
            ..
        } => ToolError::new(format!(
            "Error: \"{}\" was deleted meanwhile, so its attachment cannot come back onto it. \
             Restore the document first. Nothing was restored.",
            fragment(&target.reference().to_string())
        ))
        .with_kind(ErrorKind::Conflict),
        _ => {
            let refusal =
                transient_failure(verb, error).unwrap_or_else(|| store_failure(verb, error));
            let kind = refusal.kind();
            ToolError::new(format!("{} Nothing was restored.", refusal.message())).with_kind(kind)
        }
    }
}
