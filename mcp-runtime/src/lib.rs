//! The wiki-mcp tool-authoring framework: what a tool author writes against (`prelude`), the
//! parameter layer, the registry of every `#[mcp_tool]` linked into the binary, and the one
//! transport-free way a tool runs ([`call::call`]).
//!
//! Nothing here knows about wikis: a server attaches what its tools need to each call's
//! [`ToolContext`] as typed extensions (the wiki server adds its access doors and links), and
//! [`handler::ToolHandler`] serves a set of tools over any rmcp transport as it is.

// Lets this crate's own tests use its derives: generated code names `::mcp_runtime::__private::…`.
extern crate self as mcp_runtime;

pub mod audit;
pub mod call;
pub mod context;
pub mod declaration;
pub mod definition;
pub mod elicit;
mod error;
pub mod handler;
mod invoke;
pub mod output;
pub mod param;
pub mod prelude;
pub mod reason;
pub mod registry;
pub mod schema;
pub mod signals;
pub mod structured;
pub mod tool;
pub mod toolset;

pub use context::ToolContext;
pub use definition::{ToolAnnotations, ToolDefinition};
pub use error::Error;
pub use registry::{RegisteredTool, Registry, Reserved, registry};
pub use schema::SchemaVariant;
pub use toolset::{ServedTool, ToolSet};

#[doc(hidden)]
pub mod __private;
