//! The MCP server: per-wiki servers built from the registry and the store, served through rmcp.

mod caller;

pub use caller::Caller;
