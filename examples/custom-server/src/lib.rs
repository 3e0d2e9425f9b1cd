//! The tools of the `custom-server` example, written as any wiki tool crate writes them
//! (`use wiki_tool_sdk::prelude::*;`) and registered by being linked:
//!
//! - [`page_stats`] reads a document through the doors (`ctx.doors()?.authorize(..)`, then
//!   `read_document`) and counts its words, lines and headings;
//! - [`append_note`] writes: it appends a line to an existing document.

pub mod append_note;
pub mod page_stats;

/// The README's Rust examples ("Writing a tool", "Serving your own tools", "Testing your
/// tools"), compiled and run as this crate's doctests: this crate depends on exactly what they
/// use (the framework, the wiki server with its doors and `testing`, the command line), so the
/// documentation cannot drift from the real crates.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
