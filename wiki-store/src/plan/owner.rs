//! The document that owns attachments and objects. Writing either saves the document, as XWiki
//! does: a new version of its default row (minor unless asked), with the writer as author and
//! their comment in the history, under the same compare-and-set as a content save. The row's
//! content is unchanged, so the revision repeats it and its links stay as they are.
//!
//! A backend executes a [`Touch`] by reading the document's default row and passing it to
//! [`Touch::plan`]: [`TouchPlan::Create`] is an ordinary document save (its own plan, see
//! [`crate::plan::document`]), [`TouchPlan::Update`] updates the row and inserts its revision,
//! nothing else. A write whose own data is already as asked asks [`Touch::untouched`] first.

use crate::Result;
use crate::StoreError;
use crate::config::Limits;
use crate::error::Entity;
use crate::model::document::{DocumentSave, Expected, SaveOutcome};
use crate::model::version::Version;
use crate::plan::document::{RowView, RowWrite, check_expected, validate_save, written};
use crate::reference::DocumentReference;

/// How a write touches its owning document.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Touch<'a> {
    /// The document (its default row is touched).
    pub(crate) reference: &'a DocumentReference,
    /// Who writes.
    pub(crate) author: &'a str,
    /// The version comment.
    pub(crate) comment: &'a str,
    /// A major version instead of a minor one.
    pub(crate) major: bool,
    /// The compare-and-set condition on the default row.
    pub(crate) expected: Expected,
    /// A new title, if the write sets one.
    pub(crate) title: Option<&'a str>,
    /// Whether a missing document is created (empty content) instead of refused.
    pub(crate) create: bool,
    /// Whether a document this touch creates is hidden (the store's own configuration pages).
    pub(crate) hidden_on_create: bool,
}

/// What touching the owning document writes.
#[derive(Debug)]
pub(crate) enum TouchPlan<'a> {
    /// The document is missing and this touch creates it: save this (empty) document.
    Create(DocumentSave),
    /// A new version of the existing default row, content, syntax and hidden flag kept.
    Update(RowWrite<'a>),
}

/// The owning row's versions around a touch.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Touched {
    /// Its version before the write (`None`: this write created it).
    pub(crate) previous: Option<Version>,
    /// Its version after the write.
    pub(crate) version: Version,
}

impl Touched {
    /// The touch as a document save outcome.
    pub(crate) fn outcome(self) -> SaveOutcome {
        written(self.previous, self.version)
    }
}

impl<'a> Touch<'a> {
    /// A touch that keeps the title, never creates the document, and makes a minor version: how
    /// deleting an attachment or an object, and restoring an attachment, save their document.
    pub(crate) fn minor(
        reference: &'a DocumentReference,
        author: &'a str,
        comment: &'a str,
        expected: Expected,
    ) -> Self {
        Touch {
            reference,
            author,
            comment,
            major: false,
            expected,
            title: None,
            create: false,
            hidden_on_create: false,
        }
    }

    /// The save that creates the document when it is missing.
    fn creation(&self) -> DocumentSave {
        let save = DocumentSave::new(self.reference.clone(), "", self.author)
            .comment(self.comment)
            .expected(Expected::Absent)
            .hidden(self.hidden_on_create);
        match self.title {
            Some(title) => save.title(title),
            None => save,
        }
    }

    /// Checks author, comment and title against the limits, before any transaction.
    pub(crate) fn validate(&self, limits: &Limits) -> Result<()> {
        validate_save(&self.creation(), limits)
    }

    /// This touch, once [`Touch::validate`] accepted it.
    pub(crate) fn validated(self, limits: &Limits) -> Result<Self> {
        self.validate(limits)?;
        Ok(self)
    }

    /// For a write whose own data is already as asked, given the default row (`None`: the
    /// document is missing): `Some(version)` when this touch would leave the document as it is
    /// too (no new title), `None` when it must be saved after all.
    ///
    /// The compare-and-set is checked first, as a document save does before its own no-op test:
    /// a stale `expected` is refused even when nothing would change.
    pub(crate) fn untouched(&self, default: Option<RowView<'_>>) -> Result<Option<Version>> {
        let Some(row) = default else {
            return Ok(None);
        };
        check_expected(self.expected, Some(row.version))?;
        let same_title = self.title.is_none_or(|title| title == row.title);
        Ok(same_title.then_some(row.version))
    }

    /// Plans the touch, given the document's default row (`None`: it is missing).
    pub(crate) fn plan<'r>(&self, default: Option<RowView<'r>>) -> Result<TouchPlan<'r>>
    where
        'a: 'r,
    {
        let Some(row) = default else {
            check_expected(self.expected, None)?;
            if !self.create {
                return Err(StoreError::not_found(Entity::Document, self.reference));
            }
            return Ok(TouchPlan::Create(self.creation()));
        };
        check_expected(self.expected, Some(row.version))?;
        Ok(TouchPlan::Update(RowWrite {
            reference: self.reference,
            translation: None,
            previous: Some(row.version),
            version: row.version.next(self.major),
            language: row.language,
            title: self.title.unwrap_or(row.title),
            content: row.content,
            syntax: row.syntax,
            hidden: row.hidden,
            author: self.author,
            comment: self.comment,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::document::MARKDOWN_SYNTAX;
    use crate::model::wiki::WikiId;

    fn page() -> DocumentReference {
        DocumentReference::parse("Sandbox.Page", &WikiId::main()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn row() -> RowView<'static> {
        RowView {
            language: "en",
            title: "Title",
            content: "body",
            syntax: MARKDOWN_SYNTAX,
            hidden: true,
            version: Version::FIRST,
        }
    }

    #[test]
    fn a_touch_keeps_the_content_and_bumps_the_version() {
        let reference = page();
        let touch = Touch {
            title: Some("New"),
            major: true,
            ..Touch::minor(&reference, "bob", "why", Expected::Version(Version::FIRST))
        };
        match touch.plan(Some(row())) {
            Ok(TouchPlan::Update(write)) => {
                assert_eq!(
                    (write.title, write.content, write.hidden),
                    ("New", "body", true)
                );
                assert_eq!(write.version.to_string(), "2.1");
                assert_eq!((write.author, write.comment), ("bob", "why"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            touch.untouched(Some(row())).ok(),
            Some(None),
            "a new title is a change"
        );
        let same = Touch::minor(&reference, "bob", "why", Expected::Any);
        assert_eq!(same.untouched(Some(row())).ok(), Some(Some(Version::FIRST)));
    }

    #[test]
    fn a_missing_document_is_created_only_when_the_write_may() {
        let reference = page();
        let minor = Touch::minor(&reference, "bob", "why", Expected::Any);
        assert!(matches!(
            minor.plan(None),
            Err(StoreError::NotFound {
                entity: Entity::Document,
                ..
            })
        ));
        let creating = Touch {
            create: true,
            hidden_on_create: true,
            ..minor
        };
        match creating.plan(None) {
            Ok(TouchPlan::Create(save)) => {
                assert_eq!(save.hidden, Some(true));
                assert_eq!(save.expected, Expected::Absent);
                assert_eq!(save.content, "");
            }
            other => panic!("{other:?}"),
        }
        let stale = Touch {
            expected: Expected::Version(Version::FIRST),
            ..creating
        };
        assert!(matches!(
            stale.plan(None),
            Err(StoreError::VersionConflict { .. })
        ));
    }
}
