//! [`SemanticService`]: what a server hands the semantic tools through
//! `ServerSettings::with_service`: the index and the store its vectors live in.
//!
//! The index is derived data, not content: storing vectors goes beside the write door, which
//! guards content. So the service carries its own `Arc<dyn Store>`, given by whoever builds the
//! server, and the tools use it only for the index (how far behind it is, the nearest scan), off
//! the async workers, in the process's heavy slots. Everything a caller sees still
//! passes the doors: each candidate the scan yields is authorized through `Doors::row_visible`
//! before it counts.

use std::sync::Arc;

use wiki_tool_sdk::heavy::{Share, run_heavy};
use wiki_tool_sdk::prelude::{CancellationToken, ToolError};
use wiki_tool_sdk::store::Store;
use wiki_tool_sdk::store::api::Subscription;
use wiki_tool_sdk::store::model::change::{ChangeEvent, ChangeKind};

use crate::SemanticIndex;

/// The index and its store, cheap to clone (two `Arc`s).
#[derive(Clone)]
pub struct SemanticService {
    index: SemanticIndex,
    store: Arc<dyn Store>,
    /// The change feed, marking what the in-memory vectors must reload.
    _changes: Arc<Subscription>,
}

impl std::fmt::Debug for SemanticService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SemanticService")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl SemanticService {
    /// The service over `store`, the store the server serves. It follows the store's change
    /// feed: a saved or deleted document's rows are reloaded into the in-memory vectors before
    /// the next query of its wiki.
    pub fn new(index: SemanticIndex, store: Arc<dyn Store>) -> Self {
        let listener = index.clone();
        let changes = store.subscribe(Arc::new(move |event: &ChangeEvent| match &event.kind {
            ChangeKind::DocumentSaved { reference, .. }
            | ChangeKind::DocumentDeleted { reference } => {
                listener.document_changed(&event.wiki, reference);
            }
            ChangeKind::WikiDeleted => listener.wiki_deleted(&event.wiki),
            _ => {}
        }));
        Self {
            index,
            store,
            _changes: Arc::new(changes),
        }
    }

    /// The index.
    pub fn index(&self) -> &SemanticIndex {
        &self.index
    }

    /// Runs `f` on the index and its store in one of the process's heavy slots, for `share`
    /// ([`run_heavy`]): embedding the query and the vector scan are CPU-heavy and synchronous,
    /// so they run off the async workers and share the slots with rendering. A panic inside `f`
    /// resumes in the caller, so the middleware reports it like any panic.
    pub(crate) async fn heavy<T, F>(
        &self,
        share: &Share,
        cancellation: &CancellationToken,
        f: F,
    ) -> Result<T, ToolError>
    where
        T: Send + 'static,
        F: FnOnce(&SemanticIndex, &dyn Store) -> T + Send + 'static,
    {
        let service = self.clone();
        run_heavy(share, cancellation, move || {
            f(&service.index, &*service.store)
        })
        .await
        .map_err(|not_run| not_run.tool_error("searching by meaning"))
    }
}
