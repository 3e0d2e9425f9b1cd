//! `wiki-store`: the embedded wiki platform wiki-mcp's tools run on. It knows nothing of MCP.
//!
//! A farm of wikis holds documents with full history, translations, links, attachments, structured
//! data, rights, users, API tokens, a recycle bin and a full-text index. Callers program against the
//! [`Store`] trait, composed of one sub-trait per aggregate (in [`api`]); [`SqliteStore`] is the
//! embedded backend, `PostgresStore` (feature `postgres`) the one several processes share. No
//! backend type appears in a public signature, so callers never know which one they use.
//!
//! The API is synchronous: an async server calls it off its workers (`spawn_blocking` or a
//! dedicated pool). Every write is one transaction; full-text rows are updated inside it.
//!
//! Every rule is decided in backend-neutral modules (write planners per aggregate, column
//! encodings, authorized paging, full-text words, tree folding, schema versions, rights), and
//! every store method is written once over a backend trait (a read, a snapshot and a write over
//! the backend's connection and transaction types), so a backend is SQL, transactions and a
//! change feed; `tests/conformance` runs one suite against each.
//!
//! ```
//! use wiki_store::model::document::DocumentSave;
//! use wiki_store::model::search::{SearchQuery, WikiScope};
//! use wiki_store::model::wiki::WikiId;
//! use wiki_store::reference::DocumentReference;
//! use wiki_store::{DocumentStore, SearchStore, SqliteStore};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! let store = SqliteStore::open(dir.path().join("data"))?; // created on first open
//! let page = DocumentReference::parse("Sandbox.Welcome", &WikiId::main())?;
//! let saved = store.save_document(&DocumentSave::new(page.clone(), "Hello, wiki!", "alice"))?;
//! assert_eq!(saved.version().to_string(), "1.1");
//!
//! // Searchable as soon as the save returns; the callback authorizes each candidate.
//! let query = SearchQuery::new(Some("hello".into()), WikiScope::All);
//! let results = store.search(&query, &mut |_candidate| true)?;
//! assert_eq!(results.hits[0].candidate.reference, page);
//! # Ok(())
//! # }
//! ```

// docs.rs (`--cfg docsrs`, nightly) marks each feature-gated item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod any_words;
pub mod api;
pub mod attachments;
mod backend;
mod clock;
pub mod config;
mod error;
mod flow;
mod fulltext;
pub mod generate;
mod history;
pub mod import;
pub mod interrupt;
pub mod links;
mod listeners;
pub mod model;
pub mod objects;
mod plan;
#[cfg(feature = "postgres")]
pub mod postgres;
pub mod private_files;
pub mod reference;
pub mod rights;
pub mod scan;
mod schema;
pub mod secret;
pub mod sqlite;
mod stored;
mod structure;
#[cfg(feature = "testing")]
pub mod testing;
pub mod transfer;
mod tree;
mod waits;

pub use api::{
    AdminStore, AttachmentStore, ChangeFeed, ConfigStore, DocumentStore, HierarchyStore,
    IdentityStore, LeaseStore, LinkStore, ObjectStore, PoolStats, RightsStore, SearchStore,
    SecretStore, TokenStore, TrashStore, UserStore, VectorStore, WikiStore,
};
pub use clock::{AdjustableClock, Clock};
pub use config::{Limits, StoreConfig};
pub use error::{Entity, Field, InvalidInput, StoreError};
#[cfg(feature = "postgres")]
pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

/// The result type of every store operation.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// The whole store: every aggregate's operations. Implemented by every type implementing all of the
/// sub-traits, so each aggregate's trait can grow on its own.
pub trait Store:
    WikiStore
    + DocumentStore
    + SearchStore
    + LinkStore
    + HierarchyStore
    + ChangeFeed
    + UserStore
    + IdentityStore
    + RightsStore
    + TokenStore
    + AttachmentStore
    + ObjectStore
    + TrashStore
    + ConfigStore
    + SecretStore
    + VectorStore
    + AdminStore
    + LeaseStore
    + Send
    + Sync
{
}

impl<T> Store for T where
    T: WikiStore
        + DocumentStore
        + SearchStore
        + LinkStore
        + HierarchyStore
        + ChangeFeed
        + UserStore
        + IdentityStore
        + RightsStore
        + TokenStore
        + AttachmentStore
        + ObjectStore
        + TrashStore
        + ConfigStore
        + SecretStore
        + VectorStore
        + AdminStore
        + LeaseStore
        + Send
        + Sync
{
}
