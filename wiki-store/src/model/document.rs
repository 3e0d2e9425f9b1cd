//! Documents, their translations, and what a save asks for.

use time::OffsetDateTime;

use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::reference::DocumentReference;

/// The syntax id of our content: CommonMark with the GitHub extensions.
pub const MARKDOWN_SYNTAX: &str = "markdown/1.0";

/// One row of a document: the default row or one translation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// The locale-free reference (rights are decided on it, shared by all rows).
    pub reference: DocumentReference,
    /// `None` for the default row, else the translation's locale.
    pub locale: Option<Locale>,
    /// The document's default language (the default row's locale).
    pub default_locale: Locale,
    /// The title; may be empty (tools then show the page name).
    pub title: String,
    /// The source (Markdown).
    pub content: String,
    /// The syntax id, e.g. [`MARKDOWN_SYNTAX`].
    pub syntax: String,
    /// Hidden documents are left out of search and trees unless asked for.
    pub hidden: bool,
    /// Who saved the current version.
    pub author: String,
    /// Who created the row.
    pub creator: String,
    /// When the row was created.
    pub created: OffsetDateTime,
    /// When the current version was saved.
    pub updated: OffsetDateTime,
    /// The current version of this row.
    pub version: Version,
    /// The locales of the existing translation rows, sorted.
    pub translations: Vec<Locale>,
}

/// The locales a document exists in, for exact-match routing and its error messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentLocales {
    /// The default row's language.
    pub default_locale: Locale,
    /// The translation rows, sorted.
    pub translations: Vec<Locale>,
}

/// What a save may assume about the row's current version (optimistic concurrency).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// No check: create or overwrite whatever is there.
    Any,
    /// The row must not exist yet.
    Absent,
    /// The row must exist at exactly this version.
    Version(Version),
}

/// A request to save one document row; see [`crate::api::DocumentStore::save_document`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentSave {
    /// The document.
    pub reference: DocumentReference,
    /// `None` (or the document's default locale) saves the default row; another locale saves that
    /// translation, which needs an existing default row.
    pub locale: Option<Locale>,
    /// The new title; `None` keeps the current one (empty on creation).
    pub title: Option<String>,
    /// The new content.
    pub content: String,
    /// The syntax id; `None` keeps the current one ([`MARKDOWN_SYNTAX`] on creation, the default
    /// row's for a new translation).
    pub syntax: Option<String>,
    /// The hidden flag; `None` keeps the current one (false on creation).
    pub hidden: Option<bool>,
    /// The default language of a newly created document; `None` uses the store's configured default.
    /// Ignored when the document exists.
    pub default_locale: Option<Locale>,
    /// Who saves.
    pub author: String,
    /// The version comment.
    pub comment: String,
    /// Start a new major version instead of a minor one (creation is always `1.1`).
    pub major: bool,
    /// The compare-and-set condition, checked inside the write transaction.
    pub expected: Expected,
}

impl DocumentSave {
    /// A save of `content` by `author` with no version check and everything else kept or defaulted.
    pub fn new(
        reference: DocumentReference,
        content: impl Into<String>,
        author: impl Into<String>,
    ) -> Self {
        DocumentSave {
            reference,
            locale: None,
            title: None,
            content: content.into(),
            syntax: None,
            hidden: None,
            default_locale: None,
            author: author.into(),
            comment: String::new(),
            major: false,
            expected: Expected::Any,
        }
    }

    /// Sets the title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Targets a translation row.
    pub fn locale(mut self, locale: Locale) -> Self {
        self.locale = Some(locale);
        self
    }

    /// Sets the version comment.
    pub fn comment(mut self, comment: impl Into<String>) -> Self {
        self.comment = comment.into();
        self
    }

    /// Sets the hidden flag.
    pub fn hidden(mut self, hidden: bool) -> Self {
        self.hidden = Some(hidden);
        self
    }

    /// Asks for a major version.
    pub fn major(mut self, major: bool) -> Self {
        self.major = major;
        self
    }

    /// Sets the compare-and-set condition.
    pub fn expected(mut self, expected: Expected) -> Self {
        self.expected = expected;
        self
    }
}

/// What a save did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveOutcome {
    /// The row was created at `version` (always `1.1`).
    Created {
        /// The new version.
        version: Version,
    },
    /// The row was updated from `previous` to `version`.
    Updated {
        /// The version the save replaced.
        previous: Version,
        /// The new version.
        version: Version,
    },
    /// Title, content, syntax and hidden flag were already as asked: nothing was written.
    Unchanged {
        /// The current (untouched) version.
        version: Version,
    },
}

impl SaveOutcome {
    /// The row's version after the save.
    pub fn version(&self) -> Version {
        match *self {
            SaveOutcome::Created { version }
            | SaveOutcome::Updated { version, .. }
            | SaveOutcome::Unchanged { version } => version,
        }
    }
}
