//! The semantic index of a farm: each wiki's document rows cut into chunks ([`Chunker`]),
//! embedded ([`Embedder`]) and kept through the store's backend-neutral
//! [`VectorStore`](wiki_tool_sdk::store::VectorStore), so it lives on every backend the store has.
//!
//! Incremental by construction: the store says which rows changed since their vectors were
//! computed ([`VectorStore::vector_backlog`]: missing, or of another version), and indexing a
//! row re-embeds only the chunks whose digest it has not stored yet; a deleted row's vectors go
//! with it. Work is bounded per step ([`SemanticIndex::catch_up`] takes a row budget and stops
//! at [`CHUNKS_PER_STEP`] chunks to embed; a page gives at most [`MAX_CHUNKS_PER_PAGE`]), so the
//! background [`crate::Indexer`] and `wiki-mcp index rebuild` decide how much they do at once,
//! and one step takes a second or two at most (one model batch once a call waits). Calls never
//! index: they embed their query and read what is indexed ([`SemanticIndex::behind_if_changed`]
//! says how far behind that is).
//! Everything here is synchronous and CPU-heavy: call it off the async workers.

mod batch;
mod matrix;
mod nearest;

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use wiki_tool_sdk::store::Store;
use wiki_tool_sdk::store::model::vector::VectorIndex;
use wiki_tool_sdk::store::model::wiki::WikiId;
use wiki_tool_sdk::store::reference::DocumentReference;

use crate::{Chunker, Embedder, ModelDir, ModelPackage, Result};

pub use batch::MAX_CHUNKS_PER_PAGE;
pub use matrix::RowInfo;
pub use nearest::{Nearest, nearest};

use matrix::Matrices;

/// Rows per [`SemanticIndex::catch_up`] step of a rebuild: enough chunks (two or three a page)
/// for several full, length-sorted batches of the model, few enough that a step takes seconds.
pub const REBUILD_ROWS: usize = 64;

/// Chunks one [`SemanticIndex::catch_up`] step embeds at most (past the first row): two of the
/// model's batches, a second or two of CPU on an idle core (and a step can stop after its first
/// batch, see [`SemanticIndex::catch_up_until`]).
pub const CHUNKS_PER_STEP: usize = 64;

/// The store name of this model's vectors: vectors of another model never mix with these.
pub const INDEX_NAME: &str = "all-minilm-l6-v2";

/// The embedding model and chunker a farm's index is built with, or why there is no model.
/// Cheap to clone (`Arc`): a server keeps one and hands it to every call
/// (`ServerSettings::with_service`).
#[derive(Clone)]
pub struct SemanticIndex {
    model: Result<Arc<Embedder>, Arc<str>>,
    chunker: Chunker,
    /// What queries scan: every clone shares it, so the indexer's writes reach the tools.
    matrices: Arc<Matrices>,
    /// Per wiki, the store's commit marker when its backlog was last seen empty (see
    /// [`SemanticIndex::catch_up_if_changed`]).
    caught_up: Arc<Mutex<HashMap<WikiId, u64>>>,
    /// Whether another process holds the farm's indexer lease.
    elsewhere: Arc<AtomicBool>,
}

impl std::fmt::Debug for SemanticIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SemanticIndex")
            .field("model", &self.model.as_ref().map(|_| INDEX_NAME))
            .finish_non_exhaustive()
    }
}

/// What one [`SemanticIndex::catch_up`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CatchUp {
    /// Rows whose vectors were stored.
    pub rows: usize,
    /// Chunks embedded (the others were reused by digest).
    pub embedded: usize,
    /// Chunks reused from the stored vectors.
    pub reused: usize,
    /// Rows still stale afterwards.
    pub remaining: u64,
}

impl SemanticIndex {
    /// The index with the model found as [`ModelDir::locate`] finds it (`model_dir`, else
    /// `WIKI_MCP_MODEL_DIR`, else `<data_dir>/models/...`). A missing or unloadable model is
    /// logged once with the command that installs it, and the index answers keyword-only.
    pub fn load(model_dir: Option<&Path>, data_dir: &Path) -> SemanticIndex {
        let model = ModelDir::locate(model_dir, data_dir).and_then(|dir| Embedder::load(&dir));
        match model {
            Ok(embedder) => SemanticIndex::with_embedder(embedder),
            Err(error) => {
                tracing::warn!(%error, "semantic search answers with keyword results only");
                SemanticIndex::without_model(error.to_string())
            }
        }
    }

    /// The index with a loaded model.
    pub fn with_embedder(embedder: Embedder) -> SemanticIndex {
        SemanticIndex {
            model: Ok(Arc::new(embedder)),
            chunker: Chunker::default(),
            matrices: Arc::default(),
            caught_up: Arc::default(),
            elsewhere: Arc::default(),
        }
    }

    /// An index without a model: searches are keyword-only. `reason` is for the log.
    pub fn without_model(reason: impl Into<String>) -> SemanticIndex {
        SemanticIndex {
            model: Err(Arc::from(reason.into())),
            chunker: Chunker::default(),
            matrices: Arc::default(),
            caught_up: Arc::default(),
            elsewhere: Arc::default(),
        }
    }

    /// The model, if one is loaded.
    pub fn embedder(&self) -> Option<&Embedder> {
        self.model.as_deref().ok()
    }

    /// Why there is no model (for logs), if there is none.
    pub fn missing_model(&self) -> Option<&str> {
        self.model.as_ref().err().map(|reason| &**reason)
    }

    /// The store's index of `wiki` for this model.
    pub fn store_index(wiki: &WikiId) -> VectorIndex {
        VectorIndex::new(wiki.clone(), INDEX_NAME)
    }

    /// How many rows of `wiki` the index is behind on.
    pub fn behind(store: &dyn Store, wiki: &WikiId) -> Result<u64> {
        Ok(store.vector_backlog(&Self::store_index(wiki), 0)?.total)
    }

    /// Indexes at most `max_rows` stale rows of `wiki`, oldest first, their new chunks embedded
    /// together (see `batch`), and fewer once they make [`CHUNKS_PER_STEP`] chunks to embed.
    /// Without a model, nothing. [`REBUILD_ROWS`] is a good step for a caller that indexes
    /// everything.
    pub fn catch_up(&self, store: &dyn Store, wiki: &WikiId, max_rows: usize) -> Result<CatchUp> {
        self.catch_up_until(store, wiki, max_rows, &|| false)
    }

    /// [`SemanticIndex::catch_up`], stopping early once `yield_now` says true: it is asked
    /// after each of the model's batches is stored, so a step ends one batch after something
    /// else wants the CPU (the background indexer passes "a call waits for a heavy slot").
    /// What was stored is counted; the rest stays stale for the next step.
    pub fn catch_up_until(
        &self,
        store: &dyn Store,
        wiki: &WikiId,
        max_rows: usize,
        yield_now: &dyn Fn() -> bool,
    ) -> Result<CatchUp> {
        let index = Self::store_index(wiki);
        let backlog = store.vector_backlog(&index, max_rows)?;
        let Some(embedder) = self.embedder().filter(|_| !backlog.rows.is_empty()) else {
            return Ok(CatchUp {
                remaining: backlog.total,
                ..CatchUp::default()
            });
        };
        let indexing = batch::Indexing {
            store,
            embedder,
            chunker: &self.chunker,
            matrices: &self.matrices,
            index: &index,
        };
        let indexed = batch::index_rows(&indexing, &backlog.rows, CHUNKS_PER_STEP, yield_now)?;
        let rows = indexed.rows;
        Ok(CatchUp {
            rows,
            embedded: indexed.embedded,
            reused: indexed.reused,
            remaining: backlog.total.saturating_sub(rows as u64),
        })
    }

    /// [`SemanticIndex::catch_up`], skipped when nothing can have made a row stale: once the
    /// backlog of `wiki` is found empty, the store's commit marker read just before is kept, and
    /// while the marker stays the same no save or delete committed anywhere (a row goes stale
    /// only by one), so the backlog is not read again. Reading the backlog compares every row
    /// of the wiki with its vectors, tens of milliseconds at 10,000 pages: a query must not pay
    /// that when nothing changed. The marker is in memory (PostgreSQL) or shared memory
    /// (SQLite): no query.
    pub fn catch_up_if_changed(
        &self,
        store: &dyn Store,
        wiki: &WikiId,
        max_rows: usize,
        yield_now: &dyn Fn() -> bool,
    ) -> Result<CatchUp> {
        let marker = store.commit_marker()?;
        let lock = || {
            self.caught_up
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        if lock().get(wiki) == Some(&marker) {
            return Ok(CatchUp::default());
        }
        let done = self.catch_up_until(store, wiki, max_rows, yield_now)?;
        if done.remaining == 0 {
            lock().insert(wiki.clone(), marker);
        } else {
            lock().remove(wiki);
        }
        Ok(done)
    }

    /// How many rows of `wiki` the index is behind on, read only when something committed since
    /// it was last found caught up (see [`SemanticIndex::catch_up_if_changed`], which this is
    /// with no row to index).
    pub fn behind_if_changed(&self, store: &dyn Store, wiki: &WikiId) -> Result<u64> {
        Ok(self
            .catch_up_if_changed(store, wiki, 0, &|| false)?
            .remaining)
    }

    /// The `limit` rows of `wiki` whose best chunk is nearest `query` (a normalized vector of
    /// the model), best first, among the rows `accept` lets through. Rows are offered to
    /// `accept` in rank order, so only as many are authorized as it takes to find `limit`.
    ///
    /// Scans the wiki's vectors in memory (loaded on first use, kept current as the module
    /// `matrix` says); each result's passage is read back from the store, and a row deleted
    /// meanwhile is skipped.
    pub fn nearest(
        &self,
        store: &dyn Store,
        wiki: &WikiId,
        query: &[f32],
        limit: usize,
        accept: &mut dyn FnMut(&RowInfo) -> bool,
    ) -> Result<Vec<Nearest>> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let matrix = self.matrices.current(store, wiki, query.len())?;
        let matrix = matrix
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let index = Self::store_index(wiki);
        let mut found = Vec::with_capacity(limit);
        for ranked in matrix.rank(query) {
            if found.len() == limit {
                break;
            }
            let info = matrix.info(ranked.row);
            if !accept(info) {
                continue;
            }
            let Some(row) = store.vector_row(&index, &info.reference, info.locale.as_ref())? else {
                continue;
            };
            let key = matrix.key(ranked.chunk);
            let Some(entry) = row.entries.into_iter().find(|entry| entry.key == key) else {
                continue;
            };
            found.push(Nearest {
                reference: info.reference.clone(),
                locale: info.locale.clone(),
                language: info.language.clone(),
                text: entry.text,
                score: ranked.score,
            });
        }
        Ok(found)
    }

    /// Chunks of `wiki` the in-memory matrix holds (0 until a query loaded it).
    pub fn chunks_in_memory(&self, wiki: &WikiId) -> usize {
        self.matrices.chunks(wiki)
    }

    /// Marks a document as changed by an event: its rows are reloaded before the next query.
    pub(crate) fn document_changed(&self, wiki: &WikiId, reference: &DocumentReference) {
        self.matrices.mark_dirty(wiki, reference);
    }

    /// Forgets a deleted wiki's matrix.
    pub(crate) fn wiki_deleted(&self, wiki: &WikiId) {
        self.matrices.forget(wiki);
        self.caught_up
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(wiki);
    }

    /// Reloads the matrices old enough that rows another process removed may still be there.
    pub(crate) fn reload_old_matrices(&self, store: &dyn Store) -> Result<()> {
        match self.embedder() {
            Some(embedder) => self.matrices.reload_old(store, embedder.dimension()),
            None => Ok(()),
        }
    }

    /// Brings the in-memory vectors up to what any process stored (nothing to read while the
    /// store's commit marker has not moved).
    pub(crate) fn follow_stored_vectors(&self, store: &dyn Store) -> Result<()> {
        match self.embedder() {
            Some(embedder) => self.matrices.follow(store, embedder.dimension()),
            None => Ok(()),
        }
    }

    /// Whether another process holds the farm's indexer lease: then this process only follows
    /// the vectors that one stores (see [`crate::Indexer`]). False where no indexer runs (a
    /// test, a one-off command).
    pub fn indexed_elsewhere(&self) -> bool {
        self.elsewhere.load(Ordering::Acquire)
    }

    /// Records whether another process holds the indexer lease (the indexer says).
    pub(crate) fn set_indexed_elsewhere(&self, elsewhere: bool) {
        self.elsewhere.store(elsewhere, Ordering::Release);
    }
}

/// The pinned model package (re-exported for the CLI's install command).
pub fn model_package() -> ModelPackage {
    ModelPackage::all_minilm_l6_v2()
}
