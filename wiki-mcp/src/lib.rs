//! The library half of the `wiki-mcp` binary: where a farm lives (a data directory or a
//! database), opening it, and creating and seeding a farm the first time, so the integration
//! tests build exactly the farm users get.

// Linked for its `#[mcp_tool]`s: inventory only sees crates the binary actually links, and an
// unused dependency is not linked.
use bundled_tools as _;

pub mod database;
pub mod demo;
pub mod farm;
pub mod logging;
