//! The row a write addresses: authorized for view AND the operation's right, never the MCP
//! configuration, its locale routed, and what the store holds now.

use crate::untrusted::fragment;
use mcp_runtime::prelude::{ErrorKind, ToolError};
use wiki_store::StoreError;
use wiki_store::model::document::{Document, DocumentLocales, MARKDOWN_SYNTAX};
use wiki_store::model::locale::Locale;
use wiki_store::reference::DocumentReference;
use wiki_store::rights::Right;

use super::reserved::refuse_configuration;
use crate::access::{AuthorizedReference, Doors, store_failure};
use crate::locale::parse_locale;

/// The row a write addresses, as [`WriteDoor::target`](super::WriteDoor::target) resolved it.
/// Only the door makes one, so every write operation is handed a checked target.
#[derive(Debug, Clone)]
pub struct WriteTarget {
    pub(super) authorized: AuthorizedReference,
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
    /// See [`WriteDoor::target`](super::WriteDoor::target).
    pub(super) async fn resolve(
        doors: &Doors,
        reference: &str,
        wiki: Option<&str>,
        locale: Option<&str>,
        right: Right,
    ) -> Result<Self, ToolError> {
        // View first: a page the caller cannot view answers as reading it would, whether it
        // exists or not, before anything is read or compared.
        doors.authorize(reference, wiki, Right::View)?;
        let authorized = doors.authorize(reference, wiki, right)?;
        refuse_configuration(authorized.reference())?;
        let requested = locale
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map(|text| parse_locale("locale", text))
            .transpose()?;
        let document = authorized.reference().clone();
        let row = requested.clone();
        let (locales, default_row, translation) = doors
            .blocking(move |store| {
                let Some(locales) = store.document_locales(&document)? else {
                    return Ok::<_, StoreError>((None, None, None));
                };
                let default_row = store.document(&document, None)?;
                let translation = match row {
                    Some(locale) if locale != locales.default_locale => {
                        store.document(&document, Some(&locale))?
                    }
                    _ => None,
                };
                Ok((Some(locales), default_row, translation))
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
                ))
                .with_kind(ErrorKind::NotFound));
            }
        };
        let current = match locale {
            None => default_row.clone(),
            Some(_) => translation,
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
    pub fn reference(&self) -> &DocumentReference {
        self.authorized.reference()
    }

    /// The reference as the doors authorized it (view and [`WriteTarget::right`]), for the
    /// doors' reads that take one (the recycle bin's, for a restore).
    pub fn authorized(&self) -> &AuthorizedReference {
        &self.authorized
    }

    /// The right the target was authorized for (besides view).
    pub fn right(&self) -> Right {
        self.authorized.right()
    }

    /// The translation written, or `None` for the default row.
    pub fn locale(&self) -> Option<&Locale> {
        self.locale.as_ref()
    }

    /// The addressed row as read, or `None` when the write creates it.
    pub fn current(&self) -> Option<&Document> {
        self.current.as_ref()
    }

    /// Whether the document exists (in any language), whichever row the target addresses.
    pub fn exists(&self) -> bool {
        self.locales.is_some()
    }

    /// The default row's syntax, when the document exists (a new translation copies it).
    pub(super) fn default_syntax(&self) -> Option<&str> {
        self.default_syntax.as_deref()
    }

    /// The row's syntax id: its own, or for a row being created the default row's (a new
    /// translation copies it), else the store's Markdown.
    pub fn syntax(&self) -> &str {
        self.current
            .as_ref()
            .map(|row| row.syntax.as_str())
            .or(self.default_syntax.as_deref())
            .unwrap_or(MARKDOWN_SYNTAX)
    }

    /// The document's translations (empty when it has none or does not exist).
    pub fn translations(&self) -> &[Locale] {
        self.locales
            .as_ref()
            .map_or(&[], |locales| locales.translations.as_slice())
    }

    /// `document "X"` or `"fr" translation of "X"`: how messages name the row.
    pub fn row_name(&self) -> String {
        let reference = fragment(&self.reference().to_string()).into_owned();
        match &self.locale {
            None => format!("document \"{reference}\""),
            Some(locale) => format!("\"{locale}\" translation of \"{reference}\""),
        }
    }

    /// ` locale="fr"` when a translation is addressed, so a re-read reads the same row.
    pub fn locale_hint(&self) -> String {
        self.locale
            .as_ref()
            .map_or_else(String::new, |locale| format!(" locale=\"{locale}\""))
    }
}

#[cfg(test)]
impl WriteTarget {
    /// The target of the default row of `reference` (main wiki), as read with `current`.
    pub(super) fn for_tests(reference: &str, current: Option<Document>) -> Self {
        let reference =
            DocumentReference::parse(reference, &wiki_store::model::wiki::WikiId::main())
                .unwrap_or_else(|error| panic!("{error}"));
        Self {
            authorized: AuthorizedReference::for_tests(reference, Right::Edit),
            locale: None,
            locales: None,
            default_syntax: current.as_ref().map(|row| row.syntax.clone()),
            current,
        }
    }
}
