//! The stock `wiki-mcp` binary: wiki-mcp-cli's command line with the bundled tools linked, and
//! with feature `semantic` (default) semantic search: its tools, its start-up hook (the model
//! and the background indexer) and its admin commands, added through `wiki_mcp_cli::main_with`
//! so that the command-line library itself links none of it.

use std::process::ExitCode;

// Linked for its `#[mcp_tool]`s: the registry sees only what the binary links.
use bundled_tools as _;

#[cfg(feature = "semantic")]
mod commands;

#[cfg(feature = "semantic")]
fn main() -> ExitCode {
    // list_collections, search_collections and their start-up hook come with the crate.
    use commands::{collections, index, models};
    use semantic_search as _;
    wiki_mcp_cli::main_with(&[models::EXTENSION, collections::EXTENSION, index::EXTENSION])
}

#[cfg(not(feature = "semantic"))]
fn main() -> ExitCode {
    wiki_mcp_cli::main()
}
