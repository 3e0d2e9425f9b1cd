//! What `get_links` returns, structured: the backlinks and outgoing links its lists show (the
//! same page of each), with their counts.

use wiki_tool_sdk::prelude::*;

/// A document's links.
#[mcp_output]
pub(crate) struct LinksOutput {
    /// The document (`wiki:Space.Page`).
    pub(crate) reference: String,
    /// The backlinks, for direction `in` or `both`; else null.
    pub(crate) incoming: Option<IncomingLinks>,
    /// The outgoing links, for direction `out` or `both`; else null.
    pub(crate) outgoing: Option<OutgoingLinks>,
}

/// The documents you may view that link to a document.
#[mcp_output]
pub(crate) struct IncomingLinks {
    /// This page of the linking documents, sorted.
    pub(crate) sources: Vec<String>,
    /// Linking documents listed in all (at least this many when `truncated`).
    pub(crate) total: u64,
    /// Hidden linking documents left out (0 with showHidden).
    pub(crate) hidden: u64,
    /// Whether the backlink ceiling was reached, so more may exist.
    pub(crate) truncated: bool,
}

/// A document's wiki links, as authored (targets are not checked).
#[mcp_output]
pub(crate) struct OutgoingLinks {
    /// This page of the linked documents.
    pub(crate) documents: Vec<String>,
    /// Linked documents in all.
    pub(crate) total_documents: u64,
    /// This page of the linked attachments.
    pub(crate) attachments: Vec<LinkedAttachment>,
    /// Linked attachments in all.
    pub(crate) total_attachments: u64,
    /// Whether the document exists (a missing one has backlinks but no links of its own).
    pub(crate) exists: bool,
}

/// A linked attachment.
#[mcp_output]
#[derive(Clone)]
pub(crate) struct LinkedAttachment {
    /// The document holding it.
    pub(crate) document: String,
    /// Its file name.
    pub(crate) name: String,
}

/// The slice of `items` a page of `limit` from `offset` shows (empty past the end).
pub(crate) fn page_slice<T: Clone>(items: &[T], offset: usize, limit: usize) -> Vec<T> {
    let start = offset.min(items.len());
    let end = offset.saturating_add(limit).min(items.len());
    items[start..end].to_vec()
}
