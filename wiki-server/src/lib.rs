//! The multi-wiki MCP server, built on the `mcp-runtime` framework and the wiki tool SDK
//! (`wiki-tool-sdk`).
//!
//! One [`Manager`] keeps a server per wiki (its tools as the wiki's policy enables them, its
//! instructions, its space filter), served over streamable HTTP ([`http`]) and stdio
//! ([`stdio`]) through one rmcp handler ([`McpHandler`]); every `tools/call` of every transport
//! and test runs through [`Manager::call`]. Each call's context carries what the SDK's doors
//! need ([`wiki_tool_sdk::serving::WikiCall`]: the doors for the caller, the call's
//! confirmation ([`confirm`]) when its writes must ask, the link settings), so tool crates
//! depend on the SDK alone. Also here: `man` and `list_wikis`, the audit trail ([`audit`]),
//! account changes made alike by the command line and the admin page ([`accounts`]), OIDC
//! identities ([`oidc`]) and the `testing` harness tool crates test with.
//!
//! # Serving a farm
//!
//! The stock command line (`wiki-mcp-cli`) adds HTTP, sign-in and the admin commands; the core
//! is a [`Manager`] over a store, and a transport. One wiki as one user over stdin and stdout,
//! serving every tool the binary links beside `man` and `list_wikis`:
//!
//! ```no_run
//! use std::sync::Arc;
//! use std::time::Duration;
//!
//! use tokio_util::sync::CancellationToken;
//! use wiki_server::stdio::serve_stdio;
//! use wiki_server::{Caller, Manager, ServerSettings};
//! use wiki_tool_sdk::store::model::wiki::WikiId;
//! use wiki_tool_sdk::store::{SqliteStore, Store};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // Opened (created on the first run) before the runtime starts: store calls block.
//!     let store: Arc<dyn Store> = Arc::new(SqliteStore::open("wiki-data")?);
//!     let manager = Arc::new(Manager::new(store, ServerSettings::default())?);
//!     let caller = Caller::user(WikiId::main(), "alice");
//!     let shutdown = CancellationToken::new();
//!     let stop_within = Duration::from_secs(5);
//!     let runtime = tokio::runtime::Runtime::new()?;
//!     runtime.block_on(serve_stdio(manager, caller, shutdown, stop_within))?;
//!     // Not dropped: a read of stdin may still be blocking a thread.
//!     runtime.shutdown_timeout(stop_within);
//!     Ok(())
//! }
//! ```
//!
//! # Testing tools
//!
//! The `testing` feature (a dev-dependency of a tool crate) runs tools through
//! [`Manager::call`], the path every transport takes, on a throw-away farm: see the module
//! `testing`, and the tool SDK's crate documentation for a complete test.

// docs.rs (`--cfg docsrs`, nightly) marks each feature-gated item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

// `man` and `list_wikis` use the framework's `#[mcp_tool]`, whose generated code names
// `::mcp_runtime::__private::…` (a dependency of this crate).

pub mod accounts;
pub mod audit;
pub mod confirm;
mod error;
pub mod http;
pub mod list_wikis;
pub mod man;
pub mod metrics;
pub mod oidc;
mod registry;
mod server;
pub mod skills;
pub mod stdio;
#[cfg(feature = "testing")]
pub mod testing;
pub mod token_scope;

pub use error::Error;
pub use registry::{RESERVED, registry};
pub use server::{
    CallOrigin, Caller, DEFAULT_CALL_TIMEOUT, DEFAULT_DESCRIPTION, LINKS_META_KEY, LinkKeySource,
    MAN_HINT, Manager, McpHandler, RequestId, SERVER_NAME, ServerSettings, TraceParent, WikiServer,
    schema_variant,
};
pub use server::{narrowing, policy};
