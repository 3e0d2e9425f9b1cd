//! The library half of the `wiki-mcp` binary: opening a data directory, and creating and
//! seeding a farm the first time, so the integration tests build exactly the farm users get.

pub mod demo;
pub mod farm;
