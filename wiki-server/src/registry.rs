//! The registry this server serves from: every linked tool, with `man` and `list_wikis`
//! reserved for this crate's own declarations.

use std::sync::OnceLock;

use mcp_runtime::{Registry, Reserved};

use crate::server::policy::{LIST_WIKIS, MAN};

/// The ids this server keeps for its own tools: a contributed `man` or `list_wikis` would take
/// the place of the manual and the wiki listing the policy always serves.
pub const RESERVED: Reserved = Reserved {
    owner: env!("CARGO_CRATE_NAME"),
    ids: &[LIST_WIKIS, MAN],
};

/// The registry of the running binary with this server's reservations, loaded on first call.
/// `Err` names the conflicting declarations; the server refuses to start on it.
pub fn registry() -> Result<&'static Registry, mcp_runtime::Error> {
    static REGISTRY: OnceLock<Result<Registry, mcp_runtime::Error>> = OnceLock::new();
    REGISTRY
        .get_or_init(|| Registry::load_reserving(&[RESERVED]))
        .as_ref()
        .map_err(Clone::clone)
}
