//! The tools of the `custom-server` example, written as any wiki tool crate writes them
//! (`use wiki_tool_sdk::prelude::*;`) and registered by being linked:
//!
//! - [`page_stats`] reads a document through the doors (`ctx.doors()?.authorize(..)`, then
//!   `read_document`) and counts its words, lines and headings;
//! - [`append_note`] writes: it appends a line to an existing document;
//! - [`remove_last_line`] writes and is declared `confirm`: the person using the agent's client
//!   is asked before it removes a document's last line.

pub mod append_note;
pub mod page_stats;
pub mod remove_last_line;

/// The README's Rust example ("Writing a tool"), compiled and run as this crate's doctests: this
/// crate depends on exactly what the examples use (the framework, the wiki server with its doors
/// and `testing`, the command line), so the documentation cannot drift from the real crates.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

/// The Rust examples of `docs/tool-authors.md`, compiled and run as doctests for the same reason.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/tool-authors.md")]
struct ToolAuthorsDoctests;
