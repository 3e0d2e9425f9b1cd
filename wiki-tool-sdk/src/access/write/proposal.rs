//! Each write operation as the person confirming it reads it ([`crate::confirm`]): what the
//! door is about to do to the target, in their words, and the version it was read at.

use wiki_store::model::object::FieldChange;
use wiki_store::model::trash::TrashEntry;
use wiki_store::reference::DocumentReference;

use super::{ObjectChange, RowChange, WriteDoor, WriteTarget};
use crate::confirm::Proposal;
use crate::confirm::question::{characters, plural};
use crate::instant::utc_minute;
use crate::untrusted::fragment;
use mcp_runtime::prelude::ToolError;

impl WriteDoor<'_> {
    /// Asks the person behind the client whether `proposal` may happen to `target`, when this
    /// call's writes must be confirmed; `Ok` at once when they need not be.
    pub(super) async fn confirm(
        &self,
        target: &WriteTarget,
        proposal: impl FnOnce() -> Proposal,
    ) -> Result<(), ToolError> {
        let Some(confirmation) = self.doors.confirmation.as_deref() else {
            return Ok(());
        };
        confirmation.ask(&proposal(), &read_at(target)).await
    }
}

/// The row as the write read it: its locale and version, or `new`; a confirmation given for
/// one state of the page does not carry over to another.
pub(super) fn read_at(target: &WriteTarget) -> String {
    let locale = target
        .locale()
        .map_or_else(String::new, |l| format!("{l}:"));
    match target.current() {
        Some(row) => format!("{locale}{}", row.version),
        None => format!("{locale}new"),
    }
}

/// How the question names the row: `Sandbox.Notes (version 1.3)`, or its translation.
fn row(target: &WriteTarget) -> String {
    let name = page(target.reference());
    let name = match target.locale() {
        Some(locale) => format!("the \"{locale}\" translation of {name}"),
        None => name,
    };
    match target.current() {
        Some(current) => format!("{name} (version {})", current.version),
        None => name,
    }
}

fn page(reference: &DocumentReference) -> String {
    fragment(&reference.to_string()).into_owned()
}

/// `replace 1,204 characters of Sandbox.Notes (version 1.3) with 1,310 characters`.
pub(super) fn save(target: &WriteTarget, change: &RowChange) -> Proposal {
    let retitle = match &change.title {
        Some(title) => format!(", titled \"{}\"", fragment(title)),
        None => String::new(),
    };
    Proposal::new(match target.current() {
        Some(current) => format!(
            "replace {} of {} with {}{retitle}",
            characters(&current.content),
            row(target),
            characters(&change.content)
        ),
        None => format!(
            "create {} with {}{retitle}",
            row(target),
            characters(&change.content)
        ),
    })
}

/// `upload the attachment report.pdf (12,034 bytes) to Sandbox.Notes`.
pub(super) fn write_attachment(target: &WriteTarget, name: &str, bytes: usize) -> Proposal {
    Proposal::new(format!(
        "upload the attachment {} ({}) to {}",
        fragment(name),
        plural(bytes, "byte", "bytes"),
        page(target.reference())
    ))
}

/// `delete the attachment report.pdf of Sandbox.Notes`.
pub(super) fn delete_attachment(target: &WriteTarget, name: &str) -> Proposal {
    Proposal::new(format!(
        "delete the attachment {} of {} (it moves to the recycle bin)",
        fragment(name),
        page(target.reference())
    ))
}

/// `set 3 fields of object Blog.PostClass #0 on Blog.First`.
pub(super) fn write_object(target: &WriteTarget, change: &ObjectChange) -> Proposal {
    let fields = plural(change.values.len(), "field", "fields");
    Proposal::new(match change.number {
        Some(number) => format!(
            "set {fields} of object {} #{number} on {}",
            fragment(&change.class),
            page(target.reference())
        ),
        None => format!(
            "add a {} object ({fields}) to {}",
            fragment(&change.class),
            page(target.reference())
        ),
    })
}

/// `delete object Blog.PostClass #2 of Blog.First`.
pub(super) fn delete_object(target: &WriteTarget, class: &str, number: u32) -> Proposal {
    Proposal::new(format!(
        "delete object {} #{number} of {}",
        fragment(class),
        page(target.reference())
    ))
}

/// `add the field "status" to the class defined by Blog.PostClass`.
pub(super) fn change_class(target: &WriteTarget, change: &FieldChange) -> Proposal {
    let (verb, name, to) = match change {
        FieldChange::Add { name, .. } => ("add", name, "to"),
        FieldChange::Modify { name, .. } => ("change", name, "of"),
        FieldChange::Remove { name } => ("remove", name, "from"),
    };
    Proposal::new(format!(
        "{verb} the field \"{}\" {to} the class defined by {}",
        fragment(name),
        page(target.reference())
    ))
}

/// `delete Sandbox.Old and its 3 attachments and 1 translation`.
pub(super) fn delete_document(target: &WriteTarget, attachments: usize) -> Proposal {
    let mut with = Vec::new();
    if attachments > 0 {
        with.push(plural(attachments, "attachment", "attachments"));
    }
    let translations = target.translations().len();
    if translations > 0 {
        with.push(plural(translations, "translation", "translations"));
    }
    let with = if with.is_empty() {
        String::new()
    } else {
        format!(" and its {}", with.join(" and "))
    };
    Proposal::new(format!(
        "delete {}{with} (everything moves to the recycle bin)",
        row(target)
    ))
}

/// `restore Sandbox.Old (deleted by alice on 2026-05-01 10:15, at version 1.3) from the recycle
/// bin, with its translations, attachments and objects`, or an attachment's restore.
pub(super) fn restore(target: &WriteTarget, entry: &TrashEntry) -> Proposal {
    let deleted = format!(
        "deleted by {} on {}",
        fragment(&entry.deleted_by),
        utc_minute(entry.deleted)
    );
    Proposal::new(match &entry.attachment {
        None => format!(
            "restore {} ({deleted}, at version {}) from the recycle bin, with its translations, \
             attachments and objects",
            page(target.reference()),
            entry.version
        ),
        Some(name) => format!(
            "restore the attachment {} of {} ({deleted}) from the recycle bin",
            fragment(name),
            page(target.reference())
        ),
    })
}
