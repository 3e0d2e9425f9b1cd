//! The recycle bin's rules: what may be deleted, and what a restore refuses.
//!
//! A backend deletes a document by checking it ([`validate_delete`]), reading the default row in
//! its transaction and checking the compare-and-set on it (a missing document is refused after
//! the check, as [`missing_document`]), then moving every row and everything hanging on the
//! document into the bin and queuing [`deleted_event`]. A restore refuses a document that exists
//! again ([`document_exists`]) and an attachment whose name is taken ([`attachment_exists`]); an
//! attachment comes back as a minor version of its document ([`restore_touch`]).

use crate::config::Limits;
use crate::error::{Entity, InvalidInput};
use crate::model::change::ChangeKind;
use crate::model::document::{DocumentSave, Expected};
use crate::model::mcp_config::{MCP_CONFIG_CLASS, MCP_CONFIG_DOCUMENT};
use crate::model::trash::{DocumentDelete, TrashId};
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::plan::document::validate_save;
use crate::plan::owner::Touch;
use crate::reference::DocumentReference;
use crate::{Result, StoreError};

/// Checks a deletion before any transaction. The MCP configuration document and its class
/// document are refused: deleting them would reset or disable a wiki's endpoint behind its
/// administrators' back.
pub(crate) fn validate_delete(delete: &DocumentDelete, limits: &Limits) -> Result<()> {
    let local = delete.reference.local();
    if local == MCP_CONFIG_DOCUMENT || local == MCP_CONFIG_CLASS {
        return Err(InvalidInput::ReservedDocument { document: local }.into());
    }
    let check = DocumentSave::new(delete.reference.clone(), "", delete.author.as_str())
        .comment(delete.comment.as_str());
    validate_save(&check, limits)
}

/// The refusal of a deletion of a document that does not exist (after its compare-and-set).
pub(crate) fn missing_document(reference: &DocumentReference) -> StoreError {
    StoreError::not_found(Entity::Document, reference)
}

/// The event of a document moved to the bin.
pub(crate) fn deleted_event(reference: &DocumentReference) -> (WikiId, ChangeKind) {
    (
        reference.wiki().clone(),
        ChangeKind::DocumentDeleted {
            reference: reference.clone(),
        },
    )
}

/// The refusal of a restore of an entry that is not in the bin.
pub(crate) fn unknown_entry(id: TrashId) -> StoreError {
    StoreError::not_found(Entity::TrashEntry, id)
}

/// The event of a restored document: its default row is back at `version`.
pub(crate) fn restored_event(
    reference: &DocumentReference,
    version: Version,
) -> (WikiId, ChangeKind) {
    (
        reference.wiki().clone(),
        ChangeKind::DocumentSaved {
            reference: reference.clone(),
            locale: None,
            version,
        },
    )
}

/// The refusal of a document restore while a document exists at its reference again.
pub(crate) fn document_exists(reference: &DocumentReference) -> StoreError {
    StoreError::AlreadyExists {
        entity: Entity::Document,
        key: reference.to_string(),
    }
}

/// The refusal of an attachment restore while the document has an attachment of that name.
pub(crate) fn attachment_exists(name: &str, reference: &DocumentReference) -> StoreError {
    StoreError::AlreadyExists {
        entity: Entity::Attachment,
        key: format!("{name} on {reference}"),
    }
}

/// The comment of the document version that restoring the attachment `name` saves.
pub(crate) fn restore_comment(name: &str) -> String {
    format!("Restored attachment {name}")
}

/// How restoring an attachment touches its document: a minor version by `author`, whatever
/// the document's version is now; the document must exist. Checked against `limits`.
pub(crate) fn restore_touch<'a>(
    reference: &'a DocumentReference,
    author: &'a str,
    comment: &'a str,
    limits: &Limits,
) -> Result<Touch<'a>> {
    Touch::minor(reference, author, comment, Expected::Any).validated(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_configuration_documents_are_not_deletable() {
        for local in [MCP_CONFIG_DOCUMENT, MCP_CONFIG_CLASS, "Sandbox.Page"] {
            let delete = DocumentDelete {
                reference: DocumentReference::parse(local, &WikiId::main())
                    .unwrap_or_else(|e| panic!("{e}")),
                author: "alice".into(),
                comment: String::new(),
                expected: Expected::Any,
            };
            let refused = matches!(
                validate_delete(&delete, &Limits::default()),
                Err(StoreError::Invalid(InvalidInput::ReservedDocument { .. }))
            );
            assert_eq!(refused, local != "Sandbox.Page", "{local}");
        }
    }
}
