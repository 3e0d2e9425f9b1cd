//! The crate's part in starting a server (`wiki_tool_sdk::startup`): when a binary links this
//! crate, `serve` and `stdio` load the model (`WIKI_MCP_MODEL_DIR`, else
//! `<data>/models/all-MiniLM-L6-v2`), hand the tools a [`SemanticService`] over the served
//! store, and run the background [`Indexer`] on the store's change feed until the server stops.
//! Without a model the service still answers keyword results, says how to install the model,
//! and no indexer thread runs.

use std::sync::Arc;

use wiki_tool_sdk::startup::{Gauge, HookError, Started, Startup};

use crate::{Indexer, SemanticIndex, SemanticService};

wiki_tool_sdk::startup_hook!("semantic-search", start);

fn start(startup: &Startup<'_>) -> Result<Started, HookError> {
    let index = SemanticIndex::load(None, startup.data_dir());
    let store = Arc::clone(startup.store());
    let backlog = Gauge::new(
        "semantic_index_backlog",
        "Document rows the semantic indexer of this process has yet to embed, as of its last \
         pass (0 where another process holds the indexing lease).",
    );
    let indexer = Indexer::spawn_reporting(Arc::clone(&store), index.clone(), backlog.clone())?;
    Ok(Started::new()
        .with_service(SemanticService::new(index, store))
        .with_guard(indexer)
        .with_gauge(backlog))
}
