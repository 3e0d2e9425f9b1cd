//! What `get_document` returns, structured: the document's metadata (its header lines as
//! fields) and which part of it the text shows. The content itself stays in the text, with
//! its line numbers, where edits are formed from.

use wiki_tool_sdk::prelude::*;

use crate::seams::attachment_meta::AttachmentMeta;
pub(crate) use crate::seams::window_output::WindowOutput;

/// A document read.
#[mcp_output]
pub(crate) struct DocumentOutput {
    /// The document (`wiki:Space.Page`).
    pub(crate) reference: String,
    /// The translation read, or null for the default row.
    pub(crate) locale: Option<String>,
    /// The document's default language.
    pub(crate) default_locale: String,
    /// Its translations, besides the default row.
    pub(crate) translations: Vec<String>,
    /// The title as shown (a translation without a title shows the default row's).
    pub(crate) title: String,
    /// The content's syntax, e.g. `markdown/1.2`.
    pub(crate) syntax: String,
    /// The version read: pass it as `base_version` to write against it.
    pub(crate) version: String,
    /// Who saved it.
    pub(crate) author: String,
    /// When (ISO-8601, UTC).
    pub(crate) modified: String,
    /// Whether it is a hidden page.
    pub(crate) hidden: bool,
    /// Where a person views it, when this server has a public URL.
    pub(crate) url: Option<String>,
    /// Lines of its source.
    pub(crate) lines: u64,
    /// Characters of its source.
    pub(crate) chars: u64,
    /// Its attachments.
    pub(crate) attachments: Vec<AttachmentMeta>,
    /// Whether the text shows the rendered view (what readers see) rather than the source.
    pub(crate) rendered: bool,
    /// What the text shows of it.
    pub(crate) shows: Shows,
    /// The lines shown, when the text shows numbered lines; null otherwise.
    pub(crate) window: Option<WindowOutput>,
}

/// What a get_document text shows.
#[mcp_output]
#[serde(rename_all = "snake_case")]
pub(crate) enum Shows {
    /// Numbered lines (of the source, or of the rendered plain text): see `window`.
    Lines,
    /// The headings only (an outline), not the content.
    Outline,
    /// Sanitized HTML (one section, or the whole page).
    Html,
    /// Nothing: the page has no text of its own.
    Empty,
}
