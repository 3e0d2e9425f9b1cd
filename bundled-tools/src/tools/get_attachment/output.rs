//! What `get_attachment` returns, structured: the attachment's metadata (its header lines as
//! fields), what the result shows of its content and, for text, which characters.

use wiki_tool_sdk::prelude::*;

use super::text_window::TextWindow;
use crate::seams::attachment_meta::AttachmentMeta;
use crate::seams::counted::count;

/// An attachment read.
#[mcp_output]
pub(crate) struct AttachmentOutput {
    /// The document holding it (`wiki:Space.Page`).
    pub(crate) reference: String,
    /// The document's version.
    pub(crate) document_version: String,
    /// The attachment.
    pub(crate) attachment: AttachmentMeta,
    /// Where a person downloads it, when this server has a public URL.
    pub(crate) download_url: Option<String>,
    /// What the result shows of its content.
    pub(crate) shows: AttachmentShows,
    /// The characters shown, for `text`; null otherwise.
    pub(crate) window: Option<CharWindow>,
}

/// What a get_attachment result shows.
#[mcp_output]
#[serde(rename_all = "snake_case")]
pub(crate) enum AttachmentShows {
    /// The metadata only (metadata=true, or content not shown inline: see the text).
    Metadata,
    /// Its text (a text file, or a PDF's extracted text): see `window`.
    Text,
    /// The image itself, as an image content block.
    Image,
}

/// The characters of a text window.
#[mcp_output]
pub(crate) struct CharWindow {
    /// Characters skipped before the window.
    pub(crate) offset: u64,
    /// Characters up to the window's end.
    pub(crate) end: u64,
    /// Characters of the whole text (after any extraction cap).
    pub(crate) total_chars: u64,
    /// The `offset` that reads on; null when the window reaches the end.
    pub(crate) next_offset: Option<u64>,
}

impl CharWindow {
    /// `window`'s numbers.
    pub(super) fn new(window: &TextWindow) -> Self {
        Self {
            offset: count(window.start),
            end: count(window.end),
            total_chars: count(window.total),
            next_offset: (window.end < window.total).then(|| count(window.end)),
        }
    }
}
