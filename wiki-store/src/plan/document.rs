//! Saving one document row: the checks before the transaction, which row a save addresses, the
//! compare-and-set, whether it changes anything, and what the new version holds.
//!
//! A backend saves a row in this order, inside its write transaction:
//! 1. [`validate_save`] (before the transaction);
//! 2. refuse an unknown wiki ([`crate::plan::wiki::unknown_wiki`]);
//! 3. read the default row and pass it to [`target_row`], which says which row is addressed;
//! 4. read that row (the default row again when it is the target) and pass both to
//!    [`plan_save`];
//! 5. on [`SavePlan::Write`], insert or update the row, insert its revision, replace its links
//!    with [`RowWrite::links`] and queue [`RowWrite::event`]; on [`SavePlan::Unchanged`], write
//!    nothing (and, when every save of the transaction was unchanged, leave the change sequence
//!    where it is).

use crate::config::Limits;
use crate::error::{Entity, Field, InvalidInput};
use crate::links::extract_links;
use crate::model::change::ChangeKind;
use crate::model::document::{DocumentSave, Expected, MARKDOWN_SYNTAX, SaveOutcome};
use crate::model::link::LinkTarget;
use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::plan::text::check_text;
use crate::reference::DocumentReference;
use crate::{Result, StoreError};

/// A stored row as the rules see it, borrowed from the backend's own row type.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RowView<'r> {
    /// The row's language: the document's default language on the default row, the
    /// translation's locale on a translation row.
    pub(crate) language: &'r str,
    pub(crate) title: &'r str,
    pub(crate) content: &'r str,
    pub(crate) syntax: &'r str,
    pub(crate) hidden: bool,
    pub(crate) version: Version,
}

/// Checks everything about a save that needs no database, so bad input never opens a
/// transaction: sizes, NUL characters, the author, the syntax id.
pub(crate) fn validate_save(save: &DocumentSave, limits: &Limits) -> Result<()> {
    check_text(Field::Content, &save.content, limits.max_content_chars)?;
    if let Some(title) = &save.title {
        check_text(Field::Title, title, limits.max_title_chars)?;
    }
    check_text(Field::Comment, &save.comment, limits.max_comment_chars)?;
    check_text(Field::Author, &save.author, limits.max_author_chars)?;
    if save.author.trim().is_empty() {
        return Err(InvalidInput::EmptyAuthor.into());
    }
    if let Some(syntax) = &save.syntax
        && !valid_syntax_id(syntax)
    {
        return Err(InvalidInput::SyntaxId.into());
    }
    Ok(())
}

/// `name/version`, each part of ASCII letters, digits and `.+-_`, 64 characters at most.
fn valid_syntax_id(syntax: &str) -> bool {
    let part = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-' | '_'))
    };
    syntax.len() <= 64
        && syntax
            .split_once('/')
            .is_some_and(|(name, version)| part(name) && part(version))
}

/// Which row a read addresses, given the document's default language: `None` (the default row)
/// for no locale or the default language, else that translation's row, exactly (no fallback).
pub(crate) fn read_target<'l>(
    locale: Option<&'l Locale>,
    default_language: &str,
) -> Option<&'l Locale> {
    locale.filter(|locale| locale.as_str() != default_language)
}

/// The refusal of a diff of a document row that does not exist.
pub(crate) fn unknown_document(reference: &DocumentReference) -> StoreError {
    StoreError::not_found(Entity::Document, reference)
}

/// The refusal of a diff naming a revision that does not exist.
pub(crate) fn unknown_revision(version: Version) -> StoreError {
    StoreError::not_found(Entity::Revision, version)
}

/// The compare-and-set: whether the caller's expectation holds for the row's current version
/// (`None`: no such row), else the version conflict naming both.
pub(crate) fn check_expected(expected: Expected, actual: Option<Version>) -> Result<()> {
    let ok = match expected {
        Expected::Any => true,
        Expected::Absent => actual.is_none(),
        Expected::Version(version) => actual == Some(version),
    };
    if ok {
        return Ok(());
    }
    let expected = match expected {
        Expected::Version(version) => Some(version),
        Expected::Any | Expected::Absent => None,
    };
    Err(StoreError::VersionConflict { expected, actual })
}

/// Which row a save addresses, given the document's default row: `None` for the default row
/// (no locale, or the document's default language), else the translation's locale. A
/// translation of a document that does not exist is refused.
pub(crate) fn target_row<'s>(
    save: &'s DocumentSave,
    default: Option<&RowView<'_>>,
) -> Result<Option<&'s Locale>> {
    match (&save.locale, default) {
        (None, _) => Ok(None),
        (Some(locale), Some(default)) if locale.as_str() == default.language => Ok(None),
        (Some(locale), Some(_)) => Ok(Some(locale)),
        (Some(_), None) => Err(InvalidInput::TranslationWithoutDefault.into()),
    }
}

/// What a save does to its row.
#[derive(Debug)]
pub(crate) enum SavePlan<'a> {
    /// Title, content, syntax and hidden flag are already as asked: write nothing.
    Unchanged(Version),
    /// Write the row at a new version.
    Write(RowWrite<'a>),
}

/// A row to write (created when `previous` is `None`, else updated) and its revision.
#[derive(Debug, Clone)]
pub(crate) struct RowWrite<'a> {
    /// The document.
    pub(crate) reference: &'a DocumentReference,
    /// The row: `None` for the default row.
    pub(crate) translation: Option<&'a Locale>,
    /// The version this write replaces; `None` creates the row.
    pub(crate) previous: Option<Version>,
    pub(crate) version: Version,
    /// The row's language (stored on creation; an update keeps it).
    pub(crate) language: &'a str,
    pub(crate) title: &'a str,
    pub(crate) content: &'a str,
    pub(crate) syntax: &'a str,
    pub(crate) hidden: bool,
    /// The author of this version (and the creator, on creation).
    pub(crate) author: &'a str,
    /// The revision's comment.
    pub(crate) comment: &'a str,
}

/// What a write that moved a row from `previous` (`None`: it created the row) to `version`
/// reports.
pub(crate) fn written(previous: Option<Version>, version: Version) -> SaveOutcome {
    match previous {
        Some(previous) => SaveOutcome::Updated { previous, version },
        None => SaveOutcome::Created { version },
    }
}

impl RowWrite<'_> {
    /// What the save reports.
    pub(crate) fn outcome(&self) -> SaveOutcome {
        written(self.previous, self.version)
    }

    /// The row's links, as they must be stored after this write (in order, without repeats).
    pub(crate) fn links(&self) -> Vec<LinkTarget> {
        extract_links(self.content, self.reference)
    }

    /// The event to queue for subscribers (published after the commit).
    pub(crate) fn event(&self) -> (WikiId, ChangeKind) {
        (
            self.reference.wiki().clone(),
            ChangeKind::DocumentSaved {
                reference: self.reference.clone(),
                locale: self.translation.cloned(),
                version: self.version,
            },
        )
    }
}

/// Plans a save of the row [`target_row`] chose, given that row (`current`) and the default row
/// (`default`; the same row when the default row is the target). The compare-and-set is checked
/// first, so a stale `expected` is refused even when nothing would change: an agent acting on an
/// old read always learns that the document moved on.
pub(crate) fn plan_save<'a>(
    save: &'a DocumentSave,
    translation: Option<&'a Locale>,
    current: Option<RowView<'a>>,
    default: Option<RowView<'a>>,
    store_default_locale: &'a Locale,
) -> Result<SavePlan<'a>> {
    check_expected(save.expected, current.map(|row| row.version))?;
    // A new document may not take a look-alike name (existing ones stay readable and editable).
    if default.is_none()
        && let Some((what, reason)) = save.reference.look_alike_problem()
    {
        return Err(InvalidInput::Name { what, reason }.into());
    }
    let write = match current {
        Some(row) => {
            let title = save.title.as_deref().unwrap_or(row.title);
            let syntax = save.syntax.as_deref().unwrap_or(row.syntax);
            let hidden = save.hidden.unwrap_or(row.hidden);
            if title == row.title
                && syntax == row.syntax
                && hidden == row.hidden
                && save.content == row.content
            {
                return Ok(SavePlan::Unchanged(row.version));
            }
            RowWrite {
                reference: &save.reference,
                translation,
                previous: Some(row.version),
                version: row.version.next(save.major),
                language: row.language,
                title,
                content: &save.content,
                syntax,
                hidden,
                author: &save.author,
                comment: &save.comment,
            }
        }
        None => {
            // A new translation inherits the default row's syntax; a new document is Markdown in
            // the language it asks for, or the store's default.
            let (language, inherited_syntax) = match (translation, default) {
                (Some(locale), Some(default)) => (locale.as_str(), default.syntax),
                _ => (
                    save.default_locale
                        .as_ref()
                        .unwrap_or(store_default_locale)
                        .as_str(),
                    MARKDOWN_SYNTAX,
                ),
            };
            RowWrite {
                reference: &save.reference,
                translation,
                previous: None,
                version: Version::FIRST,
                language,
                title: save.title.as_deref().unwrap_or_default(),
                content: &save.content,
                syntax: save.syntax.as_deref().unwrap_or(inherited_syntax),
                hidden: save.hidden.unwrap_or(false),
                author: &save.author,
                comment: &save.comment,
            }
        }
    };
    Ok(SavePlan::Write(write))
}

/// Whether a transaction of these outcomes wrote nothing, so the change sequence stays put.
pub(crate) fn all_unchanged<'o>(mut outcomes: impl Iterator<Item = &'o SaveOutcome>) -> bool {
    outcomes.all(|outcome| matches!(outcome, SaveOutcome::Unchanged { .. }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> DocumentReference {
        DocumentReference::parse("Sandbox.Page", &WikiId::main()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn row(version: Version) -> RowView<'static> {
        RowView {
            language: "en",
            title: "Title",
            content: "body",
            syntax: MARKDOWN_SYNTAX,
            hidden: false,
            version,
        }
    }

    #[test]
    fn the_compare_and_set_names_both_versions() {
        let v12 = Version::FIRST.next(false);
        assert!(check_expected(Expected::Any, None).is_ok());
        assert!(check_expected(Expected::Absent, None).is_ok());
        assert!(check_expected(Expected::Version(v12), Some(v12)).is_ok());
        assert!(matches!(
            check_expected(Expected::Version(Version::FIRST), Some(v12)),
            Err(StoreError::VersionConflict { expected: Some(e), actual: Some(a) }) if e == Version::FIRST && a == v12
        ));
        assert!(matches!(
            check_expected(Expected::Absent, Some(v12)),
            Err(StoreError::VersionConflict {
                expected: None,
                actual: Some(_)
            })
        ));
    }

    #[test]
    fn the_default_language_addresses_the_default_row() {
        let fr = Locale::parse("fr").unwrap_or_else(|e| panic!("{e}"));
        let en = Locale::english();
        let default = row(Version::FIRST);
        let save = DocumentSave::new(page(), "x", "a");
        assert_eq!(target_row(&save, Some(&default)).ok(), Some(None));
        let save = save.locale(en);
        assert_eq!(target_row(&save, Some(&default)).ok(), Some(None));
        let save = save.locale(fr.clone());
        assert_eq!(target_row(&save, Some(&default)).ok(), Some(Some(&fr)));
        assert!(matches!(
            target_row(&save, None),
            Err(StoreError::Invalid(InvalidInput::TranslationWithoutDefault))
        ));
    }

    #[test]
    fn a_save_that_changes_nothing_is_planned_as_unchanged_but_still_checks_its_base() {
        let current = row(Version::FIRST);
        let same = DocumentSave::new(page(), "body", "bob").title("Title");
        let en = Locale::english();
        assert!(matches!(
            plan_save(&same, None, Some(current), Some(current), &en),
            Ok(SavePlan::Unchanged(v)) if v == Version::FIRST
        ));
        let stale = same
            .clone()
            .expected(Expected::Version(Version::FIRST.next(true)));
        assert!(matches!(
            plan_save(&stale, None, Some(current), Some(current), &en),
            Err(StoreError::VersionConflict { .. })
        ));
        let major = DocumentSave::new(page(), "new", "bob").major(true);
        match plan_save(&major, None, Some(current), Some(current), &en) {
            Ok(SavePlan::Write(write)) => {
                assert_eq!(write.version.to_string(), "2.1");
                assert_eq!(
                    write.title, "Title",
                    "an absent title keeps the current one"
                );
                assert_eq!(
                    write.outcome(),
                    SaveOutcome::Updated {
                        previous: Version::FIRST,
                        version: write.version
                    }
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_new_translation_inherits_the_default_rows_syntax() {
        let fr = Locale::parse("fr").unwrap_or_else(|e| panic!("{e}"));
        let default = RowView {
            syntax: "plain/1.0",
            ..row(Version::FIRST)
        };
        let save = DocumentSave::new(page(), "[x](Other.Page)", "a").locale(fr.clone());
        let en = Locale::english();
        match plan_save(&save, Some(&fr), None, Some(default), &en) {
            Ok(SavePlan::Write(write)) => {
                assert_eq!((write.language, write.syntax), ("fr", "plain/1.0"));
                assert_eq!(
                    write.outcome(),
                    SaveOutcome::Created {
                        version: Version::FIRST
                    }
                );
                assert_eq!(write.links().len(), 1);
                assert!(
                    matches!(write.event().1, ChangeKind::DocumentSaved { locale: Some(l), .. } if l == fr)
                );
            }
            other => panic!("{other:?}"),
        }
    }
}
