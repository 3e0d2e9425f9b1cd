//! The stock binary's own commands: semantic search's admin commands, written on the command
//! line's public extension API (`wiki_mcp_cli::extension`).

pub(crate) mod collections;
pub(crate) mod index;
pub(crate) mod models;
