//! The write door: the one public way a tool, bundled or contributed, changes a wiki.
//!
//! `ctx.doors()?.write()?` opens it for the calling user; [`WriteDoor::target`] resolves the
//! row a write addresses and every operation (`save`, `write_attachment`, `delete_attachment`,
//! `write_object`, `delete_object`, `change_class`, `delete_document`, `restore`) writes
//! through it; a
//! tool that writes more than once announces its writes first ([`WriteDoor::announce`]) so a
//! confirmation question names them all. What it owns, so no tool re-decides it:
//! - **view before anything**: the caller must hold view AND the operation's right (edit, or
//!   delete for a document); a page it cannot view, existing or not, is refused exactly as
//!   reading it is, before anything is read, compared or written: no version, no match count,
//!   no echo, no "No changes";
//! - **what no tool changes**: the MCP configuration documents in every wiki, and the classes of
//!   rights, groups, users, servers and the configuration ([`reserved`]), whoever calls;
//! - **base_version**: [`WriteTarget::base`] turns the agent's version into the store's
//!   compare-and-set condition, checked inside the store's write transaction;
//! - **how it is recorded**: the caller is the author, the comment is `[AI] `-prefixed and
//!   capped ([`Comment`]);
//! - **what it says**: conflicts, lost races, a store that gave up to concurrent writers or cannot
//!   be reached ([`WriteFailure`]), [`version_line`], [`no_changes`], and [`already_applied`]
//!   for a retry of a write that succeeded ([`WriteTarget::version_refused`]).
//!
//! The store itself refuses deleting the configuration documents and writing objects of its
//! class, so even a write that skipped the door could not reset an endpoint.

mod base;
mod failure;
mod plan;
mod proposal;
mod record;
pub mod reserved;
mod restore;
mod target;

use std::collections::BTreeMap;

use mcp_runtime::prelude::{ErrorKind, ToolError};
use wiki_store::model::attachment::{
    AttachmentDelete, AttachmentDeleted, AttachmentWrite, AttachmentWriteOutcome,
};
use wiki_store::model::document::{DocumentSave, SaveOutcome};
use wiki_store::model::object::{
    ClassChange, FieldChange, ObjectDelete, ObjectWrite, ObjectWriteOutcome,
};
use wiki_store::model::trash::{DocumentDelete, TrashEntry};
use wiki_store::model::user::GUEST_USER;
use wiki_store::rights::Right;
use wiki_store::{Store, StoreError};

pub use base::{Base, BaseRule};
pub use failure::WriteFailure;
pub use plan::PlannedWrite;
pub use record::{
    AI_PREFIX, Comment, MAX_COMMENT_CHARS, already_applied, no_changes, version_line,
};
pub use target::WriteTarget;

use super::Doors;
use reserved::refuse_sensitive_class;

/// What a save changes on the addressed row.
#[derive(Debug, Clone)]
pub struct RowChange {
    /// The new content, LF line endings.
    pub content: String,
    /// The new title, or `None` to keep it.
    pub title: Option<String>,
    /// A major version (ignored on creation, which is always 1.1).
    pub major: bool,
}

/// An object to create (`number: None`) or update on the target document.
#[derive(Debug, Clone)]
pub struct ObjectChange {
    /// The class, by its wiki-local name in the document's wiki.
    pub class: String,
    /// The object to update, or `None` to create the next one.
    pub number: Option<u32>,
    /// Field values as strings; the store coerces them to the field types, all or nothing.
    pub values: BTreeMap<String, String>,
    /// A new document title, or `None` to keep it.
    pub title: Option<String>,
    /// A major version.
    pub major: bool,
}

impl Doors {
    /// The write door for this call's user. The guest never writes (the middleware does not
    /// even offer it a write tool): `No authenticated user in context.`
    pub fn write(&self) -> Result<WriteDoor<'_>, ToolError> {
        if self.user() == GUEST_USER {
            return Err(
                ToolError::new("No authenticated user in context.").with_kind(ErrorKind::Forbidden)
            );
        }
        Ok(WriteDoor { doors: self })
    }
}

/// The doors of one call, opened for writing as its user ([`Doors::write`]).
#[derive(Debug, Clone, Copy)]
pub struct WriteDoor<'a> {
    doors: &'a Doors,
}

impl WriteDoor<'_> {
    /// The user every write is recorded as.
    pub fn author(&self) -> &str {
        self.doors.user()
    }

    /// Resolves `reference` (with the tool's `wiki` argument) for a write needing `right`
    /// (edit, or delete to delete a document): view and `right` as the caller, the reach gate
    /// and the space filter, then refuses the MCP configuration, routes `locale` to one row (a
    /// locale naming the default language is the default row; a translation of a missing
    /// document is refused) and reads that row. A caller who may not view the page gets the
    /// view refusal whether or not it exists, and nothing is read.
    pub async fn target(
        &self,
        reference: &str,
        wiki: Option<&str>,
        locale: Option<&str>,
        right: Right,
    ) -> Result<WriteTarget, ToolError> {
        WriteTarget::resolve(self.doors, reference, wiki, locale, right).await
    }

    /// Saves the target row's `change` as the caller under `base`; a new translation takes the
    /// default row's syntax. [`SaveOutcome::Unchanged`] means nothing was written.
    pub async fn save(
        &self,
        target: &WriteTarget,
        change: RowChange,
        comment: Comment,
        base: Base,
    ) -> Result<SaveOutcome, WriteFailure> {
        require(target, Right::Edit)?;
        self.confirm(target, || proposal::save(target, &change))
            .await?;
        let mut save = DocumentSave::new(target.reference().clone(), change.content, self.author())
            .comment(comment.into_string())
            .major(change.major)
            .expected(base.expected);
        save.title = change.title;
        if let Some(locale) = target.locale() {
            save.locale = Some(locale.clone());
            if target.current().is_none() {
                save.syntax = target.default_syntax().map(str::to_owned);
            }
        }
        self.run(target, &base, "save the document", move |store| {
            store.save_document(&save)
        })
        .await
    }

    /// Uploads `content` as the attachment `name` of the target document (created, empty, if
    /// missing), saving a minor version of the document. An upload of the bytes the attachment
    /// already holds writes nothing ([`SaveOutcome::Unchanged`] on the document).
    pub async fn write_attachment(
        &self,
        target: &WriteTarget,
        name: &str,
        content: Vec<u8>,
        comment: Comment,
        base: Base,
    ) -> Result<AttachmentWriteOutcome, WriteFailure> {
        require(target, Right::Edit)?;
        self.confirm(target, || {
            proposal::write_attachment(target, name, content.len())
        })
        .await?;
        let write = AttachmentWrite {
            reference: target.reference().clone(),
            name: name.to_owned(),
            content,
            author: self.author().to_owned(),
            comment: comment.into_string(),
            expected: base.expected,
        };
        self.run(target, &base, "save the attachment", move |store| {
            store.write_attachment(&write)
        })
        .await
    }

    /// Moves the attachment `name` of the target document to the recycle bin, saving a minor
    /// version of the document.
    pub async fn delete_attachment(
        &self,
        target: &WriteTarget,
        name: &str,
        comment: Comment,
        base: Base,
    ) -> Result<AttachmentDeleted, WriteFailure> {
        require(target, Right::Edit)?;
        self.confirm(target, || proposal::delete_attachment(target, name))
            .await?;
        let delete = AttachmentDelete {
            reference: target.reference().clone(),
            name: name.to_owned(),
            author: self.author().to_owned(),
            comment: comment.into_string(),
            expected: base.expected,
        };
        self.run(target, &base, "delete the attachment", move |store| {
            store.delete_attachment(&delete)
        })
        .await
    }

    /// Creates or updates one object on the target document (created, empty, if missing). The
    /// sensitive classes are refused.
    pub async fn write_object(
        &self,
        target: &WriteTarget,
        change: ObjectChange,
        comment: Comment,
        base: Base,
    ) -> Result<ObjectWriteOutcome, WriteFailure> {
        require(target, Right::Edit)?;
        refuse_sensitive_class(&change.class)?;
        self.confirm(target, || proposal::write_object(target, &change))
            .await?;
        let write = ObjectWrite {
            reference: target.reference().clone(),
            class: change.class,
            number: change.number,
            values: change.values,
            title: change.title,
            author: self.author().to_owned(),
            comment: comment.into_string(),
            major: change.major,
            expected: base.expected,
        };
        self.run(target, &base, "save the object", move |store| {
            store.write_object(&write)
        })
        .await
    }

    /// Deletes object `number` of `class` from the target document (the others keep their
    /// numbers). The sensitive classes are refused.
    pub async fn delete_object(
        &self,
        target: &WriteTarget,
        class: &str,
        number: u32,
        comment: Comment,
        base: Base,
    ) -> Result<SaveOutcome, WriteFailure> {
        require(target, Right::Edit)?;
        refuse_sensitive_class(class)?;
        self.confirm(target, || proposal::delete_object(target, class, number))
            .await?;
        let delete = ObjectDelete {
            reference: target.reference().clone(),
            class: class.to_owned(),
            number,
            author: self.author().to_owned(),
            comment: comment.into_string(),
            expected: base.expected,
        };
        self.run(target, &base, "delete the object", move |store| {
            store.delete_object(&delete)
        })
        .await
    }

    /// Changes one field of the class the target document defines (the first added field
    /// creates the class, and the document if needed). The sensitive classes are refused.
    pub async fn change_class(
        &self,
        target: &WriteTarget,
        change: FieldChange,
        major: bool,
        comment: Comment,
        base: Base,
    ) -> Result<SaveOutcome, WriteFailure> {
        require(target, Right::Edit)?;
        refuse_sensitive_class(&target.reference().local())?;
        self.confirm(target, || proposal::change_class(target, &change))
            .await?;
        let write = ClassChange {
            class_document: target.reference().clone(),
            change,
            author: self.author().to_owned(),
            comment: comment.into_string(),
            major,
            expected: base.expected,
        };
        self.run(target, &base, "change the class", move |store| {
            store.change_class(&write)
        })
        .await
    }

    /// Moves the target document, with every translation, attachment and object, to the
    /// recycle bin. Needs a target resolved for the delete right.
    pub async fn delete_document(
        &self,
        target: &WriteTarget,
        comment: Comment,
        base: Base,
    ) -> Result<TrashEntry, WriteFailure> {
        require(target, Right::Delete)?;
        if self.doors.confirmation.is_some() {
            let attachments = self.attachment_count(target).await?;
            self.confirm(target, || proposal::delete_document(target, attachments))
                .await?;
        }
        let delete = DocumentDelete {
            reference: target.reference().clone(),
            author: self.author().to_owned(),
            comment: comment.into_string(),
            expected: base.expected,
        };
        self.run(target, &base, "delete the document", move |store| {
            store.delete_document(&delete)
        })
        .await
    }

    /// How many attachments the target document has, for the question before deleting it.
    async fn attachment_count(&self, target: &WriteTarget) -> Result<usize, ToolError> {
        let reference = target.reference().clone();
        self.doors
            .with_store(move |store| store.attachments(&reference).map(|list| list.len()))
            .await?
            .map_err(|error| super::store_failure("read the attachments", &error))
    }

    /// Runs one store write off the async workers and words its refusal.
    async fn run<T, F>(
        &self,
        target: &WriteTarget,
        base: &Base,
        verb: &str,
        write: F,
    ) -> Result<T, WriteFailure>
    where
        T: Send + 'static,
        F: FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    {
        self.doors
            .with_store(write)
            .await?
            .map_err(|error| WriteFailure::from_store(target, base, verb, error))
    }
}

/// Refuses a target resolved for another right than `right` (a programming error of the tool,
/// worded for the agent all the same).
fn require(target: &WriteTarget, right: Right) -> Result<(), ToolError> {
    if target.right() == right {
        return Ok(());
    }
    tracing::warn!(
        reference = %target.reference(),
        resolved = ?target.right(),
        needed = ?right,
        "a write tool used a target resolved for another right"
    );
    Err(ToolError::new(
        "Could not save: this tool resolved its target for the wrong operation. Nothing was \
         saved; tell an administrator (the details are in the server log).",
    )
    .with_kind(ErrorKind::Internal))
}
