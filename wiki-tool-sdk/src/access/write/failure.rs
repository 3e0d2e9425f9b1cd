//! A refused or failed write as the agent reads it. Conflicts get the reference's messages (a lost
//! create race is "already exists, read it first"); sizes, NULs, names and reserved documents say
//! what to fix; a store that gave up to concurrent writers or cannot be reached says to retry;
//! anything else is the fixed "Could not …" text (cause logged, never shown). Every message says
//! that nothing was saved.

use crate::untrusted::fragment;
use mcp_runtime::prelude::{ErrorKind, ToolError};
use wiki_store::{Entity, InvalidInput, StoreError};

use super::WriteTarget;
use super::base::{Base, BaseRule};
use super::reserved::{refuse_configuration, refuse_sensitive_class};
use crate::access::{store_failure, transient_failure};

/// Why a write through the door did not happen: the agent-facing message, and the store's error
/// when the store refused, so a tool can word its own cases (an attachment's size limit, a
/// missing object) and pass the rest on with `?`.
#[derive(Debug)]
pub struct WriteFailure {
    store: Option<StoreError>,
    message: ToolError,
}

impl WriteFailure {
    /// The store's refusal, when the store refused (not the door before it).
    pub fn store_error(&self) -> Option<&StoreError> {
        self.store.as_ref()
    }

    /// The agent-facing message the door words for it.
    pub fn message(&self) -> &ToolError {
        &self.message
    }

    /// The store's `error`, worded by the operation itself as `message`.
    pub(super) fn worded(error: StoreError, message: ToolError) -> Self {
        Self {
            store: Some(error),
            message,
        }
    }

    /// The store's refusal of `target`'s write as the agent reads it; `verb` names the
    /// operation in the fixed "Could not …" text.
    pub(super) fn from_store(
        target: &WriteTarget,
        base: &Base,
        verb: &str,
        error: StoreError,
    ) -> Self {
        let message = describe(target, base, verb, &error);
        Self {
            store: Some(error),
            message,
        }
    }
}

impl From<ToolError> for WriteFailure {
    fn from(message: ToolError) -> Self {
        Self {
            store: None,
            message,
        }
    }
}

impl From<WriteFailure> for ToolError {
    fn from(failure: WriteFailure) -> Self {
        failure.message
    }
}

fn describe(target: &WriteTarget, base: &Base, verb: &str, error: &StoreError) -> ToolError {
    match error {
        StoreError::VersionConflict {
            expected: Some(expected),
            actual: Some(now),
        } => target.conflict(*now, *expected, base.sent, base.retry),
        StoreError::VersionConflict {
            expected: None,
            actual: Some(now),
        } => ToolError::new(format!(
            "Error: the {} was created by someone else meanwhile (now at version {now}). Read it \
             with get_document{} and pass its version as base_version. Nothing was saved.",
            target.row_name(),
            target.locale_hint()
        ))
        .with_kind(ErrorKind::Conflict),
        StoreError::VersionConflict { actual: None, .. } if base.rule == BaseRule::Required => {
            ToolError::new(format!(
                "Error: the {} was deleted meanwhile (it is in the recycle bin: list_trash, \
                 restore_document). Nothing was changed.",
                target.row_name()
            ))
            .with_kind(ErrorKind::Conflict)
        }
        StoreError::VersionConflict { actual: None, .. } => ToolError::new(format!(
            "Error: the {} was deleted meanwhile. Nothing was saved; restore_document brings \
             it back from the recycle bin, or omit base_version to create it again.",
            target.row_name()
        ))
        .with_kind(ErrorKind::Conflict),
        StoreError::ConcurrentSave { attempts } => ToolError::new(format!(
            "Error: the {} could not be saved: other writers kept changing it at the same moment \
             and the save was given up after {attempts} attempts. Nothing was saved. Retry the \
             call in a moment (re-read it with get_document{} first if you pass base_version: \
             it may have moved on).",
            target.row_name(),
            target.locale_hint()
        ))
        .with_kind(ErrorKind::Conflict),
        StoreError::Unavailable(_) => {
            let refusal =
                transient_failure(verb, error).unwrap_or_else(|| store_failure(verb, error));
            ToolError::new(format!("{} Nothing was saved.", refusal.message()))
                .with_kind(ErrorKind::Unavailable)
        }
        StoreError::TooLarge {
            field,
            limit,
            actual,
        } => ToolError::new(format!(
            "Error: the {field} is too large ({actual} characters; the limit is {limit}). \
             Nothing was saved."
        ))
        .with_kind(ErrorKind::Budget),
        StoreError::Invalid(InvalidInput::NulCharacter(field)) => ToolError::new(format!(
            "Error: the {field} contains a NUL character, which cannot be stored; remove it. \
             Nothing was saved."
        ))
        .with_kind(ErrorKind::BadArgument),
        StoreError::Invalid(InvalidInput::ReservedDocument { .. }) => {
            refuse_configuration(target.reference())
                .err()
                .unwrap_or_else(|| store_failure(verb, error))
        }
        StoreError::Invalid(InvalidInput::ReservedClass { class }) => {
            refuse_sensitive_class(class).err().unwrap_or_else(|| {
                ToolError::new(format!(
                    "Error: the class \"{}\" is reserved; write tools never change it. Nothing \
                     was saved.",
                    fragment(class)
                ))
                .with_kind(ErrorKind::Forbidden)
            })
        }
        StoreError::Invalid(InvalidInput::Name { what, reason }) => ToolError::new(format!(
            "Error: a new document cannot be named \"{}\": its {what} is invalid ({reason}). \
             Choose a name without invisible characters or surrounding spaces. Nothing was saved.",
            fragment(&target.reference().to_string())
        ))
        .with_kind(ErrorKind::BadArgument),
        StoreError::Invalid(InvalidInput::TranslationWithoutDefault) => ToolError::new(format!(
            "Error: \"{}\" has no default row to translate; create it first (omit 'locale'). \
             Nothing was saved.",
            fragment(&target.reference().to_string())
        ))
        .with_kind(ErrorKind::NotFound),
        StoreError::NotFound {
            entity: Entity::Wiki,
            ..
        } => ToolError::new(format!(
            "Error: the wiki \"{}\" does not exist (see list_wikis). Nothing was saved.",
            target.reference().wiki()
        ))
        .with_kind(ErrorKind::NotFound),
        _ => store_failure(verb, error),
    }
}

#[cfg(test)]
mod tests {
    use wiki_store::model::document::Expected;

    use super::*;

    fn said(error: StoreError, rule: BaseRule) -> String {
        let target = WriteTarget::for_tests("Sandbox.Page", None);
        let base = Base {
            expected: Expected::Any,
            sent: None,
            retry: "resend it",
            rule,
        };
        WriteFailure::from_store(&target, &base, "save the document", error)
            .message()
            .message()
            .to_owned()
    }

    #[test]
    fn a_write_given_up_to_concurrent_writers_says_to_retry() {
        let text = said(
            StoreError::ConcurrentSave { attempts: 8 },
            BaseRule::OptionalLock,
        );
        assert!(text.contains("given up after 8 attempts"), "{text}");
        assert!(text.contains("Nothing was saved. Retry the call"), "{text}");
    }

    #[test]
    fn an_unreachable_store_says_to_retry_and_hides_the_cause() {
        let cause = std::io::Error::other("connection refused to 10.0.0.7:5432");
        let text = said(
            StoreError::Unavailable(Box::new(cause)),
            BaseRule::RequiredIfExists,
        );
        assert!(
            text.contains("not answering right now. Retry the call"),
            "{text}"
        );
        assert!(text.ends_with("Nothing was saved."), "{text}");
        assert!(
            !text.contains("5432") && !text.contains("refused"),
            "{text}"
        );
    }

    #[test]
    fn a_row_deleted_under_a_delete_gives_no_creation_advice() {
        let gone = || StoreError::VersionConflict {
            expected: None,
            actual: None,
        };
        let delete = said(gone(), BaseRule::Required);
        assert!(!delete.contains("create"), "{delete}");
        let save = said(gone(), BaseRule::RequiredIfExists);
        assert!(
            save.contains("omit base_version to create it again"),
            "{save}"
        );
    }
}
