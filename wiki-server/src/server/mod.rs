//! The MCP server: per-wiki servers built from the registry and the store, served through rmcp.

mod caller;
mod endpoint;
mod error;
mod freshness;
mod handler;
mod manager;
pub mod policy;

pub use caller::Caller;
pub use endpoint::{ServedTool, ToolSet, WikiServer};
pub use error::ManagerError;
pub(crate) use handler::call_tool;
pub use handler::{McpHandler, SERVER_NAME};
pub(crate) use manager::panic_message;
pub use manager::{DEFAULT_CALL_TIMEOUT, DEFAULT_DESCRIPTION, MAN_HINT, Manager, ServerSettings};
