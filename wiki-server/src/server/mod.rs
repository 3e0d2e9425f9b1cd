//! The MCP server: per-wiki servers built from the registry and the store, served through rmcp.

mod call;
mod caller;
mod endpoint;
mod freshness;
mod handler;
mod manager;
pub mod narrowing;
mod origin;
pub mod policy;
mod served;
mod shown;

pub use call::LINKS_META_KEY;
pub use caller::Caller;
pub use endpoint::WikiServer;
pub use handler::{McpHandler, SERVER_NAME};
pub use manager::{
    DEFAULT_CALL_TIMEOUT, DEFAULT_DESCRIPTION, LinkKeySource, MAN_HINT, Manager, ServerSettings,
    schema_variant,
};
pub use origin::{CallOrigin, RequestId, TraceParent};
pub(crate) use served::{ServedBy, confirms_writes, served_tools};
