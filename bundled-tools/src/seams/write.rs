//! The one write-support seam (facts §3.3, §3.6): every write tool reaches the store through it.
//!
//! What it owns, so no write tool re-decides it:
//! - **who and what**: [`WriteTarget::resolve`] authorizes the reference through the doors as the
//!   calling user (EDIT, or DELETE for deletes), refuses the MCP configuration whatever the
//!   arguments ([`refuse_configuration`]), routes `locale` to one row (a translation of a missing
//!   document is refused) and reads that row;
//! - **base_version**: [`WriteTarget::expected`] applies the rules of [`BaseRule`] and turns the
//!   agent's version into the STORE's compare-and-set condition. The check that counts runs inside
//!   the store's write transaction; [`save_failure`] maps the store's
//!   [`StoreError::VersionConflict`] to the reference's "Version conflict: …" message, so two
//!   agents saving on one version never both win;
//! - **how it is recorded**: the caller is the author ([`author`]); the comment is `[AI] `-prefixed
//!   and capped ([`version_comment`]); creation is always 1.1, later saves minor unless `major`;
//! - **what it says**: [`version_line`], [`review_line`] (`View:` or `Compare:` from the urls
//!   seam), [`no_changes`].
//!
//! A write tool can never change the MCP configuration, rights, users or tokens: rights, users and
//! tokens are not documents in our store (no document write reaches them), and the configuration
//! document and class are refused here for every write and by the store for deletes and object
//! writes. Object and schema writes refuse the sensitive classes with [`refuse_sensitive_class`].

use mcp_runtime::output::guard::fragment;
use wiki_server::access::{AuthorizedReference, Doors, store_failure};
use wiki_server::prelude::*;
use wiki_server::store::model::document::{
    Document, DocumentLocales, DocumentSave, Expected, MARKDOWN_SYNTAX, SaveOutcome,
};
use wiki_server::store::model::locale::Locale;
use wiki_server::store::model::mcp_config::{MCP_CONFIG_CLASS, MCP_CONFIG_DOCUMENT};
use wiki_server::store::model::version::Version;
use wiki_server::store::reference::DocumentReference;
use wiki_server::store::rights::Right;
use wiki_server::store::{Entity, InvalidInput, StoreError};

use crate::seams::translation::locale_argument;
use crate::seams::urls::{Target, link};

/// The literal prefix of every version comment a write tool stores: tooling greps for it.
pub(crate) const AI_PREFIX: &str = "[AI] ";

/// The longest stored version comment, prefix included; longer ones end in `...`.
pub(crate) const MAX_COMMENT_CHARS: usize = 1000;

/// Classes no object or schema write may touch: the reference's rights, groups, users and server
/// classes (refused by name even though our store keeps rights and users outside documents), and
/// the MCP configuration class.
const SENSITIVE_CLASSES: [&str; 6] = [
    "XWiki.XWikiRights",
    "XWiki.XWikiGlobalRights",
    "XWiki.XWikiGroups",
    "XWiki.XWikiUsers",
    "XWiki.XWikiServerClass",
    MCP_CONFIG_CLASS,
];

/// How a tool treats `base_version` (facts §3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BaseRule {
    /// write_document, write_attachment, write_object, write_schema: required when the row
    /// exists, refused when creating.
    RequiredIfExists,
    /// edit_document: an optional lock on an existing row (the save is still compare-and-set on
    /// the version the edits were applied to); refused when creating.
    OptionalLock,
    /// delete_*: always required.
    Required,
}

/// The row a write addresses, authorized for the tool's right, with what the store holds now.
#[derive(Debug, Clone)]
pub(crate) struct WriteTarget {
    authorized: AuthorizedReference,
    /// The translation written, or `None` for the default row.
    locale: Option<Locale>,
    /// The document's locales, `None` when the document does not exist.
    locales: Option<DocumentLocales>,
    /// The addressed row as read, `None` when it is to be created.
    current: Option<Document>,
    /// The default row's syntax, copied onto a new translation.
    default_syntax: Option<String>,
}

impl WriteTarget {
    /// Authorizes `reference` (with the tool's `wiki` argument) for `right` as the caller, refuses
    /// the MCP configuration, routes the `locale` argument and reads the addressed row. A locale
    /// naming the document's default language addresses the default row; a locale on a document
    /// that does not exist is refused (create the default row first).
    pub(crate) async fn resolve(
        ctx: &ToolContext,
        reference: &str,
        wiki: Option<&str>,
        locale: Option<&str>,
        right: Right,
    ) -> Result<Self, ToolError> {
        author(ctx)?;
        let doors = ctx.doors()?;
        let authorized = doors.authorize(reference, wiki, right)?;
        refuse_configuration(authorized.reference())?;
        let requested = locale_argument(locale)?;
        let document = authorized.reference().clone();
        let (locales, default_row) = doors
            .blocking(move |store| {
                let locales = store.document_locales(&document)?;
                let default_row = match locales {
                    Some(_) => store.document(&document, None)?,
                    None => None,
                };
                Ok::<_, StoreError>((locales, default_row))
            })
            .await?
            .map_err(|error| store_failure("read the document", &error))?;
        let locale = match (&locales, requested) {
            (_, None) => None,
            (Some(locales), Some(locale)) if locale == locales.default_locale => None,
            (Some(_), Some(locale)) => Some(locale),
            (None, Some(locale)) => {
                return Err(ToolError::new(format!(
                    "Error: the document \"{}\" does not exist, so it has no \"{locale}\" \
                     translation to write. Create the default language first (omit 'locale'), \
                     then add the translation. Nothing was saved.",
                    fragment(&authorized.reference().to_string())
                )));
            }
        };
        let current = match &locale {
            None => default_row.clone(),
            Some(locale) => read_row(doors, &authorized, locale).await?,
        };
        Ok(Self {
            authorized,
            locale,
            locales,
            current,
            default_syntax: default_row.map(|row| row.syntax),
        })
    }

    /// The resolved, wiki-qualified reference.
    pub(crate) fn reference(&self) -> &DocumentReference {
        self.authorized.reference()
    }

    /// The translation written, or `None` for the default row.
    pub(crate) fn locale(&self) -> Option<&Locale> {
        self.locale.as_ref()
    }

    /// The addressed row as read, or `None` when the write creates it.
    pub(crate) fn current(&self) -> Option<&Document> {
        self.current.as_ref()
    }

    /// The row's syntax id: its own, or for a row being created the default row's (a new
    /// translation copies it), else the store's Markdown.
    pub(crate) fn syntax(&self) -> &str {
        self.current
            .as_ref()
            .map(|row| row.syntax.as_str())
            .or(self.default_syntax.as_deref())
            .unwrap_or(MARKDOWN_SYNTAX)
    }

    /// The document's translations (empty when it has none or does not exist).
    pub(crate) fn translations(&self) -> &[Locale] {
        self.locales
            .as_ref()
            .map_or(&[], |locales| locales.translations.as_slice())
    }

    /// `document "X"` or `"fr" translation of "X"`: how messages name the row.
    pub(crate) fn row_name(&self) -> String {
        let reference = fragment(&self.reference().to_string()).into_owned();
        match &self.locale {
            None => format!("document \"{reference}\""),
            Some(locale) => format!("\"{locale}\" translation of \"{reference}\""),
        }
    }

    /// The store's compare-and-set condition for `base` under `rule`, or the agent-facing refusal.
    /// `retry` ends the conflict message ("redo your edits", "resend the content"). A stale
    /// version is refused here already (the row as read); the store refuses it again if someone
    /// saves between this read and the write.
    pub(crate) fn expected(
        &self,
        base: Option<Version>,
        rule: BaseRule,
        retry: &str,
    ) -> Result<Expected, ToolError> {
        match (&self.current, base) {
            (Some(current), Some(base)) if current.version != base => {
                Err(self.conflict(current.version, base, retry))
            }
            (Some(_), Some(base)) => Ok(Expected::Version(base)),
            (Some(current), None) => match rule {
                BaseRule::OptionalLock => Ok(Expected::Version(current.version)),
                BaseRule::RequiredIfExists | BaseRule::Required => Err(ToolError::new(format!(
                    "Error: the {} already exists (version {}); 'base_version' is required to \
                     change it. Read it with get_document{} and pass the version it shows as \
                     base_version. Nothing was saved.",
                    self.row_name(),
                    current.version,
                    self.locale_hint()
                ))),
            },
            (None, Some(_)) => Err(ToolError::new(format!(
                "Error: the {} does not exist; omit base_version to create it. Nothing was saved.",
                self.row_name()
            ))),
            (None, None) if rule == BaseRule::Required => Err(ToolError::new(format!(
                "Error: the {} does not exist. Nothing was changed.",
                self.row_name()
            ))),
            (None, None) => Ok(Expected::Absent),
        }
    }

    /// The reference's conflict message: the row moved on from the agent's base version.
    pub(crate) fn conflict(&self, now: Version, base: Version, retry: &str) -> ToolError {
        let what = match &self.locale {
            None => "the document".to_owned(),
            Some(locale) => format!("the \"{locale}\" translation"),
        };
        ToolError::new(format!(
            "Version conflict: {what} is now at version {now} but base_version is {base}. \
             Re-read it with get_document{} and {retry}. get_history from={base} shows what \
             changed since. Nothing was saved.",
            self.locale_hint()
        ))
    }

    /// ` locale="fr"` when a translation is addressed, so the re-read reads the same row.
    fn locale_hint(&self) -> String {
        self.locale
            .as_ref()
            .map_or_else(String::new, |locale| format!(" locale=\"{locale}\""))
    }

    /// Saves the addressed row as the caller under `expected`: `content`, and `title` when given.
    /// A new translation takes the default row's syntax. Store refusals become agent-facing
    /// messages ([`save_failure`]); [`SaveOutcome::Unchanged`] means nothing was written.
    pub(crate) async fn save(
        &self,
        ctx: &ToolContext,
        change: RowChange,
        expected: Expected,
        retry: &str,
    ) -> Result<SaveOutcome, ToolError> {
        let mut save = DocumentSave::new(self.reference().clone(), change.content, author(ctx)?)
            .comment(change.comment)
            .major(change.major)
            .expected(expected);
        save.title = change.title;
        if let Some(locale) = &self.locale {
            save.locale = Some(locale.clone());
            if self.current.is_none() {
                save.syntax.clone_from(&self.default_syntax);
            }
        }
        let outcome = ctx
            .doors()?
            .blocking(move |store| store.save_document(&save))
            .await?;
        outcome.map_err(|error| save_failure(self, &error, retry))
    }
}

/// What a save changes on the addressed row.
#[derive(Debug, Clone)]
pub(crate) struct RowChange {
    /// The new content, LF line endings.
    pub(crate) content: String,
    /// The new title, or `None` to keep it.
    pub(crate) title: Option<String>,
    /// The stored comment, from [`version_comment`].
    pub(crate) comment: String,
    /// A major version (ignored on creation, which is always 1.1).
    pub(crate) major: bool,
}

/// The calling user, recorded as the author. The guest never writes (the middleware refuses
/// write tools for it too): `No authenticated user in context.`
pub(crate) fn author(ctx: &ToolContext) -> Result<String, ToolError> {
    ctx.user()
        .map(str::to_owned)
        .ok_or_else(|| ToolError::new("No authenticated user in context."))
}

/// Refuses the MCP configuration document and its class document in any wiki, whatever the
/// tool: only the configuration commands may change an endpoint's configuration.
pub(crate) fn refuse_configuration(reference: &DocumentReference) -> Result<(), ToolError> {
    let local = reference.local();
    if local == MCP_CONFIG_DOCUMENT || local == MCP_CONFIG_CLASS {
        return Err(ToolError::new(format!(
            "Error: \"{}\" holds this server's MCP configuration; write tools never change it \
             (an administrator uses the configuration commands). Nothing was saved.",
            fragment(&reference.to_string())
        )));
    }
    Ok(())
}

/// Refuses the sensitive classes (rights, groups, users, servers, the MCP configuration) for
/// object and schema writes, whatever the arguments. `class` is the wiki-local class name.
pub(crate) fn refuse_sensitive_class(class: &str) -> Result<(), ToolError> {
    if SENSITIVE_CLASSES.contains(&class.trim()) {
        return Err(ToolError::new(format!(
            "Error: the class \"{}\" controls rights, users or this server's configuration; \
             write tools never change it. Nothing was saved.",
            fragment(class)
        )));
    }
    Ok(())
}

/// The stored version comment: `[AI] ` and the agent's comment, or `default` when the agent's is
/// absent or blank, cut to [`MAX_COMMENT_CHARS`] with `...` (the prefix always kept).
pub(crate) fn version_comment(agent: Option<&str>, default: &str) -> String {
    let text = agent
        .map(str::trim)
        .filter(|comment| !comment.is_empty())
        .unwrap_or(default);
    let comment = format!("{AI_PREFIX}{text}");
    if comment.chars().count() <= MAX_COMMENT_CHARS {
        return comment;
    }
    let mut cut: String = comment.chars().take(MAX_COMMENT_CHARS - 3).collect();
    cut.push_str("...");
    cut
}

/// `Version: 1.1` after a creation, `Version: 4.3 -> 4.4` after an update.
pub(crate) fn version_line(outcome: &SaveOutcome) -> String {
    match outcome {
        SaveOutcome::Created { version } | SaveOutcome::Unchanged { version } => {
            format!("Version: {version}")
        }
        SaveOutcome::Updated { previous, version } => {
            format!("Version: {previous} -> {version}")
        }
    }
}

/// `View: <url>` after a creation, `Compare: <url>` (the two versions) after an update; `None`
/// without a public URL or when nothing was saved.
pub(crate) fn review_line(
    ctx: &ToolContext,
    target: &WriteTarget,
    outcome: &SaveOutcome,
) -> Option<String> {
    let reference = target.reference();
    let locale = target.locale();
    match *outcome {
        SaveOutcome::Created { .. } => {
            link(ctx, Target::View { reference, locale }).map(|url| format!("View: {url}"))
        }
        SaveOutcome::Updated { previous, version } => link(
            ctx,
            Target::Compare {
                reference,
                locale,
                from: previous,
                to: version,
            },
        )
        .map(|url| format!("Compare: {url}")),
        SaveOutcome::Unchanged { .. } => None,
    }
}

/// The no-op result: `No changes: <what>. Nothing was saved; …` with the untouched version.
/// `what` is a clause, e.g. "the content and title are already as given".
pub(crate) fn no_changes(target: &WriteTarget, what: &str, version: Version) -> ToolOutput {
    ToolOutput::text(format!(
        "No changes: {what}. Nothing was saved; the {} stays at version {version}.",
        target.row_name()
    ))
}

/// A store refusal as the agent reads it. Conflicts get the reference's messages (a lost create
/// race is "already exists, read it first"); sizes, NULs and reserved documents say what to fix;
/// anything else is the fixed "Could not save" text (cause logged, never shown).
pub(crate) fn save_failure(target: &WriteTarget, error: &StoreError, retry: &str) -> ToolError {
    match error {
        StoreError::VersionConflict {
            expected: Some(base),
            actual: Some(now),
        } => target.conflict(*now, *base, retry),
        StoreError::VersionConflict {
            expected: None,
            actual: Some(now),
        } => ToolError::new(format!(
            "Error: the {} was created by someone else meanwhile (now at version {now}). Read it \
             with get_document{} and pass its version as base_version. Nothing was saved.",
            target.row_name(),
            target.locale_hint()
        )),
        StoreError::VersionConflict { actual: None, .. } => ToolError::new(format!(
            "Error: the {} was deleted meanwhile. Nothing was saved; check the recycle bin with \
             an administrator, or omit base_version to create it again.",
            target.row_name()
        )),
        StoreError::TooLarge {
            field,
            limit,
            actual,
        } => ToolError::new(format!(
            "Error: the {field} is too large ({actual} characters; the limit is {limit}). \
             Nothing was saved."
        )),
        StoreError::Invalid(InvalidInput::NulCharacter(field)) => ToolError::new(format!(
            "Error: the {field} contains a NUL character, which cannot be stored; remove it. \
             Nothing was saved."
        )),
        StoreError::Invalid(InvalidInput::ReservedDocument { .. }) => {
            refuse_configuration(target.reference())
                .err()
                .unwrap_or_else(|| store_failure("save the document", error))
        }
        StoreError::Invalid(InvalidInput::Name { what, reason }) => ToolError::new(format!(
            "Error: a new document cannot be named \"{}\": its {what} is invalid ({reason}). \
             Choose a name without invisible characters or surrounding spaces. Nothing was saved.",
            fragment(&target.reference().to_string())
        )),
        StoreError::Invalid(InvalidInput::TranslationWithoutDefault) => ToolError::new(format!(
            "Error: \"{}\" has no default row to translate; create it first (omit 'locale'). \
             Nothing was saved.",
            fragment(&target.reference().to_string())
        )),
        StoreError::NotFound {
            entity: Entity::Wiki,
            ..
        } => ToolError::new(format!(
            "Error: the wiki \"{}\" does not exist (see list_wikis). Nothing was saved.",
            target.reference().wiki()
        )),
        _ => store_failure("save the document", error),
    }
}

async fn read_row(
    doors: &Doors,
    authorized: &AuthorizedReference,
    locale: &Locale,
) -> Result<Option<Document>, ToolError> {
    let reference = authorized.reference().clone();
    let locale = locale.clone();
    doors
        .blocking(move |store| store.document(&reference, Some(&locale)))
        .await?
        .map_err(|error| store_failure("read the document", &error))
}

#[cfg(test)]
mod tests {
    use wiki_server::store::model::wiki::WikiId;

    use super::*;

    fn page(text: &str) -> DocumentReference {
        DocumentReference::parse(text, &WikiId::main()).unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn comments_are_prefixed_defaulted_and_capped() {
        assert_eq!(
            version_comment(None, "Created document"),
            "[AI] Created document"
        );
        assert_eq!(
            version_comment(Some("  \n "), "Replaced content"),
            "[AI] Replaced content"
        );
        assert_eq!(version_comment(Some(" fix typo "), "x"), "[AI] fix typo");
        let long = "é".repeat(2000);
        let capped = version_comment(Some(&long), "x");
        assert_eq!(capped.chars().count(), MAX_COMMENT_CHARS);
        assert!(capped.starts_with(AI_PREFIX) && capped.ends_with("é..."));
        let exact = "a".repeat(MAX_COMMENT_CHARS - AI_PREFIX.len());
        assert_eq!(
            version_comment(Some(&exact), "x"),
            format!("{AI_PREFIX}{exact}")
        );
    }

    #[test]
    fn the_configuration_is_refused_in_every_wiki() {
        for text in [
            "MCP.ServerConfig",
            "MCP.ServerConfigClass",
            "sub:MCP.ServerConfig",
        ] {
            assert!(
                refuse_configuration(&page(text))
                    .is_err_and(|error| error.message().contains("MCP configuration")),
                "{text}"
            );
        }
        assert_eq!(refuse_configuration(&page("MCP.Notes")), Ok(()));
    }

    #[test]
    fn sensitive_classes_are_refused() {
        assert!(refuse_sensitive_class("XWiki.XWikiRights").is_err());
        assert!(refuse_sensitive_class(MCP_CONFIG_CLASS).is_err());
        assert_eq!(refuse_sensitive_class("Tasks.TaskClass"), Ok(()));
    }

    #[test]
    fn version_lines() {
        let first = Version::FIRST;
        let next = first.next(false);
        assert_eq!(
            version_line(&SaveOutcome::Created { version: first }),
            "Version: 1.1"
        );
        assert_eq!(
            version_line(&SaveOutcome::Updated {
                previous: first,
                version: next
            }),
            "Version: 1.1 -> 1.2"
        );
    }

    #[test]
    fn the_guest_is_no_author() {
        let guest = ToolContext::new(None);
        assert_eq!(
            author(&guest).map_err(|error| error.message().to_owned()),
            Err("No authenticated user in context.".to_owned())
        );
        let alice = ToolContext::new(Some("alice".to_owned()));
        assert_eq!(author(&alice), Ok("alice".to_owned()));
    }
}
