//! The wiki-mcp framework: what a tool author needs (`prelude`), the parameter layer, and the
//! registry of every `#[mcp_tool]` linked into the binary.

// Lets this crate use its own `#[mcp_tool]` (man, list_wikis): generated code names
// `::mcp_runtime::__private::…`.
extern crate self as mcp_runtime;

pub mod declaration;
mod invoke;
pub mod output;
pub mod param;
pub mod tool;

#[doc(hidden)]
pub mod __private;
