//! The wiki tool SDK: what a tool crate of a wiki-mcp server is written with.
//!
//! A tool crate writes `use wiki_tool_sdk::prelude::*;`, declares its tools with the framework's
//! `#[mcp_tool]`, and reaches content through the access doors ([`access::Doors`]) its
//! context carries: `ctx.doors()` ([`WikiContext`]). Writes go through the write door
//! (`ctx.doors()?.write()?`), which checks rights, compares versions, prefixes comments and asks
//! the person for confirmation when the wiki or the tool requires it. Also here: signed links
//! ([`links`]), the Markdown dialect and its limits ([`markdown`]), the process's budgets and
//! heavy slots ([`budgets`], [`heavy`]), locales and dates ([`locale`], [`instant`]), the
//! catalog's categories ([`categories`]) and start-up hooks ([`startup`]).
//!
//! This crate depends on the framework (`mcp-runtime`) and the store only: the server
//! (`wiki-server`: the manager, policy, HTTP, stdio, identity, `man`) builds on it and hands
//! each call what the doors need ([`serving`]). The store is re-exported whole as [`store`] and
//! `time` as [`time`], so a tool crate depends on `mcp-runtime` and this crate alone.

pub mod access;
pub mod budgets;
pub mod categories;
pub mod confirm;
mod context;
pub mod heavy;
pub mod instant;
pub mod links;
pub mod locale;
pub mod markdown;
pub mod prelude;
pub mod serving;
pub mod startup;

pub use context::WikiContext;

/// The wiki store, whole: the types the doors hand out and the traits `store_call` closures use.
pub use wiki_store as store;

/// The date library of the store's instants, for tools that compute with them.
pub use time;
