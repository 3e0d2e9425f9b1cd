//! The multi-wiki MCP server, built on the `mcp-runtime` framework and the wiki tool SDK
//! (`wiki-tool-sdk`).
//!
//! One [`Manager`] keeps a server per wiki (its tools as the wiki's policy enables them, its
//! instructions, its space filter), served over streamable HTTP ([`http`]) and stdio
//! ([`stdio`]) through one rmcp handler ([`McpHandler`]); every `tools/call` of every transport
//! and test runs through [`Manager::call`]. Each call's context carries what the SDK's doors
//! need ([`wiki_tool_sdk::serving::WikiCall`]: the doors for the caller, the call's
//! confirmation ([`confirm`]) when its writes must ask, the link settings), so tool crates
//! depend on the SDK alone. Also here: `man` and `list_wikis`, the audit trail ([`audit`]), OIDC
//! identities ([`oidc`]) and the `testing` harness tool crates test with.

// docs.rs (`--cfg docsrs`, nightly) marks each feature-gated item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

// `man` and `list_wikis` use the framework's `#[mcp_tool]`, whose generated code names
// `::mcp_runtime::__private::…` (a dependency of this crate).

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
pub mod stdio;
#[cfg(feature = "testing")]
pub mod testing;

pub use error::Error;
pub use registry::{RESERVED, registry};
pub use server::policy;
pub use server::{
    Caller, DEFAULT_CALL_TIMEOUT, DEFAULT_DESCRIPTION, LinkKeySource, MAN_HINT, Manager,
    McpHandler, SERVER_NAME, ServerSettings, WikiServer, schema_variant,
};
