//! The multi-wiki MCP server, built on the `mcp-runtime` framework.
//!
//! One [`Manager`] keeps a server per wiki (its tools as the wiki's policy enables them, its
//! instructions, its space filter), served over streamable HTTP ([`http`]) and stdio
//! ([`stdio`]) through one rmcp handler ([`McpHandler`]); every `tools/call` of every transport
//! and test runs through [`Manager::call`]. Wiki tools reach content through the access doors
//! ([`access::Doors`]), which this crate attaches to each call's context: a tool crate writes
//! `use wiki_server::prelude::*;` and calls `ctx.doors()` ([`WikiContext`]).
//!
//! The store is re-exported whole as [`store`] and `time` as [`time`], so a tool crate uses the
//! exact versions the doors hand out and depends on `mcp-runtime` and this crate alone.

// `man` and `list_wikis` use the framework's `#[mcp_tool]`, whose generated code names
// `::mcp_runtime::__private::…` (a dependency of this crate).

pub mod access;
pub mod audit;
pub mod budgets;
pub mod categories;
pub mod confirm;
mod context;
mod error;
pub mod heavy;
pub mod http;
pub mod instant;
pub mod links;
pub mod list_wikis;
pub mod locale;
pub mod man;
pub mod markdown;
pub mod prelude;
mod registry;
mod server;
pub mod startup;
pub mod stdio;
#[cfg(feature = "testing")]
pub mod testing;

pub use context::WikiContext;
pub use error::Error;
pub use registry::{RESERVED, registry};
pub use server::policy;
pub use server::{
    Caller, DEFAULT_CALL_TIMEOUT, DEFAULT_DESCRIPTION, LinkKeySource, MAN_HINT, Manager,
    McpHandler, SERVER_NAME, ServerSettings, WikiServer,
};

/// The wiki store, whole: the types the doors hand out and the traits `store_call` closures use.
pub use wiki_store as store;

/// The date library of the store's instants, for tools that compute with them.
pub use time;
