//! The farm's wikis: what a new wiki may be called, and that the main wiki stays.

use crate::error::{Entity, Field, InvalidInput};
use crate::model::change::ChangeKind;
use crate::model::wiki::WikiId;
use crate::plan::text::check_text;
use crate::{Result, StoreError};

/// The longest pretty name of a wiki, in characters.
const MAX_PRETTY_NAME_CHARS: usize = 255;

/// Checks a new wiki's pretty name before any transaction (the id is valid by construction).
pub(crate) fn validate_new_wiki(pretty_name: &str) -> Result<()> {
    check_text(Field::PrettyName, pretty_name, MAX_PRETTY_NAME_CHARS)
}

/// The refusal of a wiki id that is taken.
pub(crate) fn wiki_exists(id: &WikiId) -> StoreError {
    StoreError::AlreadyExists {
        entity: Entity::Wiki,
        key: id.to_string(),
    }
}

/// The refusal of a write into (or deletion of) a wiki that does not exist.
pub(crate) fn unknown_wiki(id: &WikiId) -> StoreError {
    StoreError::not_found(Entity::Wiki, id)
}

/// Refuses to delete the main wiki, which always exists.
pub(crate) fn validate_delete(id: &WikiId) -> Result<()> {
    if id.is_main() {
        return Err(InvalidInput::DeleteMainWiki.into());
    }
    Ok(())
}

/// The event of a created wiki.
pub(crate) fn created_event(id: &WikiId) -> (WikiId, ChangeKind) {
    (id.clone(), ChangeKind::WikiCreated)
}

/// The event of a deleted wiki.
pub(crate) fn deleted_event(id: &WikiId) -> (WikiId, ChangeKind) {
    (id.clone(), ChangeKind::WikiDeleted)
}
