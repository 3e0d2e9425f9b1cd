//! What `get_links` returns, structured: the backlinks and outgoing links its lists show (the
//! same page of each), with their counts.

use wiki_tool_sdk::prelude::*;

pub(crate) use crate::seams::deleted::DeletedOutput;

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

/// A document's wiki links, as authored, each target of this page checked.
#[mcp_output]
pub(crate) struct OutgoingLinks {
    /// This page of the linked documents.
    pub(crate) documents: Vec<LinkedDocument>,
    /// Linked documents in all.
    pub(crate) total_documents: u64,
    /// This page of the linked attachments.
    pub(crate) attachments: Vec<LinkedAttachment>,
    /// Linked attachments in all.
    pub(crate) total_attachments: u64,
    /// Whether the document exists (a missing one has backlinks but no links of its own).
    pub(crate) exists: bool,
    /// When the document is in the recycle bin: its deletion; else null.
    pub(crate) deleted: Option<DeletedOutput>,
}

/// A linked document.
#[mcp_output]
#[derive(Clone)]
pub(crate) struct LinkedDocument {
    /// The target (`wiki:Space.Page`).
    pub(crate) reference: String,
    /// What the target is now.
    pub(crate) status: Status,
}

/// What a link target is now. A target you may not view reads as `missing`.
#[mcp_output]
#[derive(Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Status {
    /// It exists.
    Exists,
    /// It does not exist (or you may not view it).
    Missing,
    /// It is in the recycle bin (for a linked attachment: it, or its document).
    Deleted,
}

/// A linked attachment.
#[mcp_output]
#[derive(Clone)]
pub(crate) struct LinkedAttachment {
    /// The document holding it.
    pub(crate) document: String,
    /// Its file name.
    pub(crate) name: String,
    /// What the attachment is now.
    pub(crate) status: Status,
}

/// The slice of `items` a page of `limit` from `offset` shows (empty past the end).
pub(crate) fn page_slice<T: Clone>(items: &[T], offset: usize, limit: usize) -> Vec<T> {
    let start = offset.min(items.len());
    let end = offset.saturating_add(limit).min(items.len());
    items[start..end].to_vec()
}
