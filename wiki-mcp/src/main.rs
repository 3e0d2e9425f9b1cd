//! The stock `wiki-mcp` binary: the library's command line with the bundled tools linked.

use std::process::ExitCode;

// Linked for its `#[mcp_tool]`s: the registry sees only what the binary links.
use bundled_tools as _;
// list_collections, search_collections and their start-up hook (the background indexer).
#[cfg(feature = "semantic")]
use semantic_search as _;

fn main() -> ExitCode {
    wiki_mcp::main()
}
