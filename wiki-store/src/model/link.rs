//! Wiki links extracted from content.

use crate::reference::DocumentReference;

/// Where a wiki link points. Targets need not exist (broken links are kept for repair).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LinkTarget {
    /// A document (locale-free).
    Document(DocumentReference),
    /// An attachment of a document.
    Attachment {
        /// The document holding the attachment.
        document: DocumentReference,
        /// The attachment's file name.
        name: String,
    },
}

/// A document linking to the looked-up target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backlink {
    /// The linking document (locale-free: any of its rows links).
    pub source: DocumentReference,
    /// Whether the linking document's default row is hidden.
    pub hidden: bool,
}

/// Backlinks, sorted by source reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BacklinkPage {
    /// The backlinks found, at most the requested ceiling.
    pub backlinks: Vec<Backlink>,
    /// Whether more existed beyond the ceiling.
    pub truncated: bool,
}
