//! The wiki-mcp framework: what a tool author needs (`prelude`), the parameter layer, and the
//! registry of every `#[mcp_tool]` linked into the binary.

// Lets this crate use its own `#[mcp_tool]` (man, list_wikis): generated code names
// `::mcp_runtime::__private::…`.
extern crate self as mcp_runtime;

pub mod access;
pub mod audit;
pub mod call;
pub mod declaration;
pub mod definition;
mod error;
pub mod http;
mod invoke;
pub mod links;
pub mod list_wikis;
pub mod man;
pub mod output;
pub mod param;
pub mod prelude;
pub mod registry;
pub mod schema;
pub mod server;
pub mod stdio;
pub mod tool;

pub use definition::{ToolAnnotations, ToolDefinition};
pub use error::Error;
pub use registry::{RegisteredTool, Registry, registry};

/// The README's examples ("Writing a tool"), compiled and run as this crate's doctests so the
/// documentation cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;

#[doc(hidden)]
pub mod __private;
