//! The tools of the `hello-stdio` example server: one, written as any tool crate writes one
//! (`use mcp_runtime::prelude::*;`), registered by being linked.

pub mod text_stats;
