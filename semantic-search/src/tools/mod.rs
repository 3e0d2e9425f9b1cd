//! The two MCP tools, "Semantic Search": written against the public framework and wiki-server
//! APIs only, as any tool crate would be.

mod list_collections;
mod scope;
mod search_collections;
