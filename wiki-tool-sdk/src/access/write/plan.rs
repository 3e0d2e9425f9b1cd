//! A call's writes announced before the first of them: what a tool that writes more than once
//! (two pages, an attachment and its page, a batch) tells the write door so that the person
//! confirming it ([`crate::confirm`]) is asked about every write at once, not the first alone.
//!
//! The person's yes covers the whole call (a single-use answer could not cover a second write
//! after the first landed), so a question naming the first write only would let the later ones
//! run unseen. [`WriteDoor::announce`] asks once, naming each announced write (up to
//! [`crate::confirm::question::LISTED`], then how many more), bound to the version of every
//! target; the writes that follow run on that answer. Without confirmation it does nothing.

use mcp_runtime::prelude::ToolError;
use wiki_store::model::object::FieldChange;
use wiki_store::rights::Right;

use super::reserved::refuse_sensitive_class;
use super::{ObjectChange, RowChange, WriteDoor, WriteTarget, proposal, require};
use crate::confirm::Proposal;

/// One write a call is about to make, as the matching [`WriteDoor`] operation takes it.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum PlannedWrite<'a> {
    /// [`WriteDoor::save`] of `change` to `target`.
    Save(&'a WriteTarget, &'a RowChange),
    /// [`WriteDoor::write_attachment`] of `bytes` bytes as the attachment `name`.
    WriteAttachment(&'a WriteTarget, &'a str, usize),
    /// [`WriteDoor::delete_attachment`] of the attachment `name`.
    DeleteAttachment(&'a WriteTarget, &'a str),
    /// [`WriteDoor::write_object`] of `change`.
    WriteObject(&'a WriteTarget, &'a ObjectChange),
    /// [`WriteDoor::delete_object`] of object `number` of `class`.
    DeleteObject(&'a WriteTarget, &'a str, u32),
    /// [`WriteDoor::change_class`] of `change`.
    ChangeClass(&'a WriteTarget, &'a FieldChange),
    /// [`WriteDoor::delete_document`] of the target.
    DeleteDocument(&'a WriteTarget),
}

impl PlannedWrite<'_> {
    fn target(&self) -> &WriteTarget {
        match *self {
            Self::Save(target, _)
            | Self::WriteAttachment(target, ..)
            | Self::DeleteAttachment(target, _)
            | Self::WriteObject(target, _)
            | Self::DeleteObject(target, ..)
            | Self::ChangeClass(target, _)
            | Self::DeleteDocument(target) => target,
        }
    }

    /// What the operation itself would refuse before asking: the person is never asked about
    /// a write that cannot happen.
    fn check(&self) -> Result<(), ToolError> {
        match *self {
            Self::DeleteDocument(target) => require(target, Right::Delete),
            Self::WriteObject(target, change) => {
                require(target, Right::Edit)?;
                refuse_sensitive_class(&change.class)
            }
            Self::DeleteObject(target, class, _) => {
                require(target, Right::Edit)?;
                refuse_sensitive_class(class)
            }
            Self::ChangeClass(target, _) => {
                require(target, Right::Edit)?;
                refuse_sensitive_class(&target.reference().local())
            }
            Self::Save(target, _)
            | Self::WriteAttachment(target, ..)
            | Self::DeleteAttachment(target, _) => require(target, Right::Edit),
        }
    }
}

impl WriteDoor<'_> {
    /// Announces every write this call will make, before the first: when the call's writes
    /// must be confirmed, the person is asked once about all of them (the question names each,
    /// up to ten, then how many more) and the writes that follow run on that answer. `Ok` at
    /// once when nothing needs confirming. A tool that writes once need not call it; a tool that
    /// writes more than once should, or the question describes its first write only.
    pub async fn announce(&self, writes: &[PlannedWrite<'_>]) -> Result<(), ToolError> {
        for write in writes {
            write.check()?;
        }
        let Some(confirmation) = self.doors.confirmation.as_deref() else {
            return Ok(());
        };
        let mut proposals = Vec::with_capacity(writes.len());
        for write in writes {
            proposals.push(match *write {
                PlannedWrite::Save(target, change) => proposal::save(target, change),
                PlannedWrite::WriteAttachment(target, name, bytes) => {
                    proposal::write_attachment(target, name, bytes)
                }
                PlannedWrite::DeleteAttachment(target, name) => {
                    proposal::delete_attachment(target, name)
                }
                PlannedWrite::WriteObject(target, change) => proposal::write_object(target, change),
                PlannedWrite::DeleteObject(target, class, number) => {
                    proposal::delete_object(target, class, number)
                }
                PlannedWrite::ChangeClass(target, change) => proposal::change_class(target, change),
                PlannedWrite::DeleteDocument(target) => {
                    let attachments = self.attachment_count(target).await?;
                    proposal::delete_document(target, attachments)
                }
            });
        }
        if proposals.is_empty() {
            return Ok(());
        }
        // Bound to the version of every target as read: a yes given for these pages in one
        // state does not carry over to another.
        let base = writes
            .iter()
            .map(|write| proposal::read_at(write.target()))
            .collect::<Vec<_>>()
            .join(" ");
        confirmation
            .ask_covering(&Proposal::all(proposals), &base, writes.len())
            .await
    }
}
