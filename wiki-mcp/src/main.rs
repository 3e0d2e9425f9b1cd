//! The stock `wiki-mcp` binary: the library's command line with the bundled tools linked, and
//! with feature `semantic` (default) semantic search: its tools, its start-up hook (the model
//! and the background indexer) and its admin commands, added through `wiki_mcp::main_with`
//! so that the library itself links none of it.

use std::process::ExitCode;

// Linked for its `#[mcp_tool]`s: the registry sees only what the binary links.
use bundled_tools as _;

// The semantic commands' files sit with the other commands; they are the binary's, written on
// the library's public extension API.
#[cfg(feature = "semantic")]
#[path = "commands/collections.rs"]
mod collections;
#[cfg(feature = "semantic")]
#[path = "commands/index.rs"]
mod index;
#[cfg(feature = "semantic")]
#[path = "commands/models.rs"]
mod models;

#[cfg(feature = "semantic")]
fn main() -> ExitCode {
    // list_collections, search_collections and their start-up hook come with the crate.
    use semantic_search as _;
    wiki_mcp::main_with(&[models::EXTENSION, collections::EXTENSION, index::EXTENSION])
}

#[cfg(not(feature = "semantic"))]
fn main() -> ExitCode {
    wiki_mcp::main()
}
