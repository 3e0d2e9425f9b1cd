//! `base_version`: the agent's version turned into the store's compare-and-set condition.
//!
//! The check that counts runs inside the store's write transaction (a [`Base`] carries the
//! condition to it); checking against the row as read first only gives the agent the conflict
//! message sooner. So two agents saving on one version never both win, and a lost race is a
//! version conflict, never a lost edit.

use wiki_store::model::document::Expected;
use wiki_store::model::version::Version;

use super::WriteTarget;
use mcp_runtime::prelude::{ErrorKind, ToolError};

/// How a tool treats `base_version`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaseRule {
    /// Create or replace (write_document, write_attachment, write_object, write_schema's
    /// add/modify): required when the row exists, refused when creating.
    RequiredIfExists,
    /// An optional lock on an existing row (edit_document): without it the save is still
    /// compare-and-set on the version the change was computed from; refused when creating.
    OptionalLock,
    /// Change or remove something that must exist (the deletes, write_schema's remove):
    /// always required, and the row must exist.
    Required,
}

/// The compare-and-set condition of one write, made only by [`WriteTarget::base`], so every
/// write through the door states what it expects the store to hold.
#[derive(Debug, Clone)]
pub struct Base {
    pub(super) expected: Expected,
    /// The version the agent sent, `None` when the condition is the version as read.
    pub(super) sent: Option<Version>,
    /// How the conflict message ends ("redo your edits", "resend the content").
    pub(super) retry: &'static str,
    /// The rule it was made under (a delete gives no creation advice).
    pub(super) rule: BaseRule,
}

impl WriteTarget {
    /// The compare-and-set condition for the agent's `base` under `rule`, or the agent-facing
    /// refusal. `retry` ends the conflict messages. A stale version is refused here already
    /// (against the row as read); the store refuses it again if someone saves in between.
    pub fn base(
        &self,
        base: Option<Version>,
        rule: BaseRule,
        retry: &'static str,
    ) -> Result<Base, ToolError> {
        let made = |expected| Base {
            expected,
            sent: base,
            retry,
            rule,
        };
        match (self.current(), base) {
            (Some(current), Some(base)) if current.version != base => {
                Err(self.conflict(current.version, base, Some(base), retry))
            }
            (Some(_), Some(base)) => Ok(made(Expected::Version(base))),
            (Some(current), None) => match rule {
                BaseRule::OptionalLock => Ok(made(Expected::Version(current.version))),
                BaseRule::RequiredIfExists | BaseRule::Required => Err(ToolError::new(format!(
                    "Error: the {} already exists (version {}); 'base_version' is required to \
                     change it. Read it with get_document{} and pass the version it shows as \
                     base_version. Nothing was saved.",
                    self.row_name(),
                    current.version,
                    self.locale_hint()
                ))
                .with_kind(ErrorKind::BadArgument)),
            },
            (None, _) if rule == BaseRule::Required => Err(ToolError::new(format!(
                "Error: the {} does not exist. Nothing was changed.",
                self.row_name()
            ))
            .with_kind(ErrorKind::NotFound)),
            (None, Some(_)) => Err(ToolError::new(format!(
                "Error: the {} does not exist; omit base_version to create it. Nothing was saved.",
                self.row_name()
            ))
            .with_kind(ErrorKind::BadArgument)),
            (None, None) => Ok(made(Expected::Absent)),
        }
    }

    /// Whether [`WriteTarget::base`] would refuse `sent` under `rule` for the version alone:
    /// the row exists at another version than the one sent, or exists while a creation sent
    /// none. That is where the retry of a write that already succeeded lands, so a tool
    /// checks first whether the row already holds exactly what it would store, and answers
    /// [`super::already_applied`] instead of a conflict.
    pub fn version_refused(&self, sent: Option<Version>, rule: BaseRule) -> bool {
        match (self.current(), sent) {
            (Some(current), Some(sent)) => current.version != sent,
            (Some(_), None) => rule == BaseRule::RequiredIfExists,
            (None, _) => false,
        }
    }

    /// The reference's conflict message: the row moved on from `base`, the version the change
    /// was made against. `sent` is the agent's base_version: without one (an optional lock not
    /// used) the message says the row changed while the call ran, not that a base_version the
    /// agent never sent is stale.
    pub(super) fn conflict(
        &self,
        now: Version,
        base: Version,
        sent: Option<Version>,
        retry: &str,
    ) -> ToolError {
        let what = match self.locale() {
            None => "the document".to_owned(),
            Some(locale) => format!("the \"{locale}\" translation"),
        };
        let hint = self.locale_hint();
        match sent {
            Some(sent) => ToolError::new(format!(
                "Version conflict: {what} is now at version {now} but base_version is {sent}. \
                 Re-read it with get_document{hint} and {retry}. get_history from={sent} shows \
                 what changed since. Nothing was saved."
            ))
            .with_kind(ErrorKind::Conflict),
            None => ToolError::new(format!(
                "Version conflict: {what} was saved by someone else while this call ran (it \
                 was at version {base}, it is now at version {now}). Re-read it with \
                 get_document{hint} and {retry}. get_history from={base} shows what changed. \
                 Nothing was saved."
            ))
            .with_kind(ErrorKind::Conflict),
        }
    }
}

#[cfg(test)]
mod tests {
    use time::OffsetDateTime;
    use wiki_store::model::document::Document;
    use wiki_store::model::locale::Locale;
    use wiki_store::reference::DocumentReference;

    use super::*;

    fn version(text: &str) -> Version {
        text.parse().unwrap_or_else(|error| panic!("{error:?}"))
    }

    fn at(text: &str) -> WriteTarget {
        let reference =
            DocumentReference::parse("Sandbox.Page", &wiki_store::model::wiki::WikiId::main())
                .unwrap_or_else(|error| panic!("{error}"));
        let row = Document {
            reference,
            locale: None,
            default_locale: Locale::parse("en").unwrap_or_else(|error| panic!("{error}")),
            title: String::new(),
            content: String::new(),
            syntax: "markdown/1.0".to_owned(),
            hidden: false,
            author: "alice".to_owned(),
            creator: "alice".to_owned(),
            created: OffsetDateTime::UNIX_EPOCH,
            updated: OffsetDateTime::UNIX_EPOCH,
            version: version(text),
            translations: Vec::new(),
        };
        WriteTarget::for_tests("Sandbox.Page", Some(row))
    }

    fn refusal(result: Result<Base, ToolError>) -> String {
        match result {
            Ok(base) => panic!("expected a refusal, got {base:?}"),
            Err(error) => error.message().to_owned(),
        }
    }

    #[test]
    fn the_optional_lock_defaults_to_the_version_as_read() {
        let base = at("2.3").base(None, BaseRule::OptionalLock, "redo");
        assert!(base.is_ok_and(
            |base| base.expected == Expected::Version(version("2.3")) && base.sent.is_none()
        ));
    }

    #[test]
    fn a_stale_base_version_is_a_conflict_naming_it() {
        let text =
            refusal(at("2.3").base(Some(version("2.1")), BaseRule::RequiredIfExists, "redo"));
        assert!(
            text.starts_with(
                "Version conflict: the document is now at version 2.3 but base_version is 2.1."
            ),
            "{text}"
        );
    }

    #[test]
    fn a_lost_race_without_a_base_version_names_no_base_version() {
        let target = at("2.3");
        let text = target.conflict(version("2.4"), version("2.3"), None, "redo your edits");
        let text = text.message();
        assert!(!text.contains("base_version is"), "{text}");
        assert!(
            text.contains("was at version 2.3, it is now at version 2.4"),
            "{text}"
        );
        assert!(text.ends_with("Nothing was saved."), "{text}");
    }

    #[test]
    fn deletes_give_no_creation_advice() {
        let missing = WriteTarget::for_tests("Sandbox.Gone", None);
        for base in [None, Some(version("1.1"))] {
            let text = refusal(missing.base(base, BaseRule::Required, "delete again"));
            assert_eq!(
                text,
                "Error: the document \"main:Sandbox.Gone\" does not exist. Nothing was changed."
            );
        }
        let text = refusal(missing.base(Some(version("1.1")), BaseRule::RequiredIfExists, "x"));
        assert!(text.contains("omit base_version to create it"), "{text}");
    }
}
