//! Vectors derived from document rows: what a vector index keeps per row.
//!
//! A vector index is a named, per-wiki set of entries computed from the rows of the wiki's
//! documents (passages and their embeddings, for a semantic search). The store knows nothing of
//! how they are computed: it keeps them beside the rows they came from, says which rows changed
//! since their entries were computed ([`VectorBacklog`]), and drops a row's entries when the row
//! goes (a delete, a wiki deletion).

use crate::model::locale::Locale;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::reference::DocumentReference;

/// One vector index of one wiki: `name` says what computed it (a model id), so two models'
/// vectors never mix. Validated on every call ([`crate::InvalidInput::VectorIndex`]): a name is
/// 1 to 64 characters of `a-z`, `0-9`, `.`, `_` and `-`, starting with a letter or digit.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VectorIndex {
    /// The wiki whose rows it covers.
    pub wiki: WikiId,
    /// Its name.
    pub name: String,
}

impl VectorIndex {
    /// The index called `name` of `wiki`.
    pub fn new(wiki: WikiId, name: impl Into<String>) -> Self {
        VectorIndex {
            wiki,
            name: name.into(),
        }
    }
}

/// One entry of a row: a passage of it, its vector, and the digest of what it was computed from,
/// so a caller re-computes only the entries whose digest changed.
#[derive(Debug, Clone, PartialEq)]
pub struct VectorEntry {
    /// Its id within the row, stable across saves that do not move it (1 to 256 bytes).
    pub key: String,
    /// The digest of the input it was computed from (1 to 128 bytes).
    pub digest: String,
    /// The passage it stands for, as shown to a reader (at most 64 KiB).
    pub text: String,
    /// The vector: finite values, 1 to 4096 of them, as many in every entry of a row.
    pub vector: Vec<f32>,
}

/// A row's entries as computed from one of its versions.
#[derive(Debug, Clone, PartialEq)]
pub struct VectorRow {
    /// The document.
    pub reference: DocumentReference,
    /// The row: `None` for the default row, else that translation.
    pub locale: Option<Locale>,
    /// The version of the row the entries were computed from.
    pub version: Version,
    /// The entries, at most 10,000, keys unique.
    pub entries: Vec<VectorEntry>,
}

/// A row whose entries are missing or were computed from another version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleRow {
    /// The document.
    pub reference: DocumentReference,
    /// The row: `None` for the default row.
    pub locale: Option<Locale>,
    /// Its current version.
    pub version: Version,
}

/// The rows of a wiki an index is behind on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VectorBacklog {
    /// The first stale rows (oldest first, at most the limit asked for).
    pub rows: Vec<StaleRow>,
    /// How many rows are stale in all.
    pub total: u64,
}

/// One stored entry with the row it belongs to, as a scan returns it.
#[derive(Debug, Clone, PartialEq)]
pub struct ScannedVector {
    /// The document.
    pub reference: DocumentReference,
    /// The row: `None` for the default row.
    pub locale: Option<Locale>,
    /// The row's language (its locale, or the document's default locale).
    pub language: Locale,
    /// Whether the document is hidden.
    pub hidden: bool,
    /// The entry.
    pub entry: VectorEntry,
}

/// A row whose entries were stored after some vector sequence value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenRow {
    /// The document.
    pub reference: DocumentReference,
    /// The row: `None` for the default row.
    pub locale: Option<Locale>,
}

/// What was stored in an index since a vector sequence value (see
/// [`crate::VectorStore::vector_changes`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VectorChanges {
    /// The vector sequence when the rows were read: every write up to it is in `rows` (or
    /// left out with `more`); ask again from it.
    pub seq: u64,
    /// The rows written since, oldest write first, at most the limit asked for.
    pub rows: Vec<WrittenRow>,
    /// Whether more rows were written than the limit: a caller rereads the index whole.
    pub more: bool,
}
