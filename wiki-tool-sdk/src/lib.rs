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
//!
//! # A read tool
//!
//! A parameter is a field, its doc comment what the agent reads (the framework's crate
//! documentation lists the types). The door resolves the reference, checks the caller's right
//! and the wiki's space filter before the store is asked, so a refusal tells nothing about
//! pages the caller cannot see:
//!
//! ```
//! use wiki_tool_sdk::prelude::*;
//!
//! /// Count the words of a document.
//! ///
//! /// Words are separated by whitespace; `min_length` skips short ones.
//! #[mcp_tool(id = "count_words", category = "Text")]
//! pub struct CountWords {
//!     /// The document to count, e.g. "Sandbox.WebHome".
//!     reference: String,
//!     /// Skip words shorter than this many characters (default 1, at most 100).
//!     #[param(default = 1, range = 1..=100)]
//!     min_length: usize,
//! }
//!
//! impl Execute for CountWords {
//!     async fn execute(self, ctx: &ToolContext) -> ToolResult {
//!         let doors = ctx.doors()?;
//!         let page = doors.authorize(&self.reference, None, Right::View)?;
//!         let document = doors.read_document(&page, None).await?;
//!         let words = document.content.split_whitespace();
//!         let counted = words.filter(|word| word.chars().count() >= self.min_length).count();
//!         Ok(ToolOutput::text(format!("{}: {counted} words.", page.reference())))
//!     }
//! }
//! ```
//!
//! # A write tool
//!
//! `write` makes the tool off until a wiki enables it, and never offered to the guest. The
//! write door checks view and edit rights, refuses the server's own configuration, records the
//! save as the caller with an `[AI] ` comment, asks the person first when the wiki or the tool
//! (`confirm`) says so, and saves as a compare-and-set on the version the change was made
//! from, so a concurrent edit is a conflict and never overwritten:
//!
//! ```
//! use wiki_tool_sdk::prelude::*;
//!
//! /// Append one line of text at the end of an existing document.
//! #[mcp_tool(id = "append_line", write, category = "Notes")]
//! pub struct AppendLine {
//!     /// The document to append to, e.g. "Sandbox.WebHome".
//!     reference: String,
//!     /// The line to append.
//!     line: String,
//! }
//!
//! impl Execute for AppendLine {
//!     async fn execute(self, ctx: &ToolContext) -> ToolResult {
//!         let door = ctx.doors()?.write()?;
//!         let target = door.target(&self.reference, None, None, Right::Edit).await?;
//!         let Some(current) = target.current() else {
//!             return Err(ToolError::new("Error: the document does not exist."));
//!         };
//!         let content = format!("{}\n{}\n", current.content.trim_end(), self.line);
//!         let base = target.base(None, BaseRule::OptionalLock, "call append_line again")?;
//!         let change = RowChange { content, title: None, major: false };
//!         let outcome = door.save(&target, change, Comment::new(None, "Appended a line"), base).await?;
//!         Ok(ToolOutput::text(format!("Appended.\n{}", version_line(&outcome))))
//!     }
//! }
//! ```
//!
//! # Testing a tool
//!
//! `wiki-server`'s `testing` feature (a dev-dependency) runs tools through the server's own
//! call path on a throw-away farm ([`wiki_server::testing`](https://docs.rs/wiki-server/latest/wiki_server/testing/)):
//!
//! ```
//! # use wiki_tool_sdk::prelude::*;
//! # /// Count the words of a document.
//! # #[mcp_tool(id = "count_words", category = "Text")]
//! # pub struct CountWords {
//! #     /// The document to count.
//! #     reference: String,
//! # }
//! # impl Execute for CountWords {
//! #     async fn execute(self, ctx: &ToolContext) -> ToolResult {
//! #         let doors = ctx.doors()?;
//! #         let page = doors.authorize(&self.reference, None, Right::View)?;
//! #         let document = doors.read_document(&page, None).await?;
//! #         let counted = document.content.split_whitespace().count();
//! #         Ok(ToolOutput::text(format!("{}: {counted} words.", page.reference())))
//! #     }
//! # }
//! use serde_json::json;
//! use wiki_server::testing::TestFarm;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let farm = TestFarm::empty();
//! farm.add_user("alice").allow_on_wiki("alice", "main", &[Right::View]);
//! farm.save("Sandbox.WebHome", "Three short words");
//!
//! let alice = farm.user("alice");
//! let counted = alice.call("count_words", json!({"reference": "Sandbox.WebHome"})).await;
//! assert_eq!(counted.expect_text(), "main:Sandbox.WebHome: 3 words.");
//!
//! let missing = alice.call("count_words", json!({})).await.expect_error();
//! assert!(missing.contains("'reference'"), "{missing}");
//! # }
//! ```

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
pub mod untrusted;

pub use context::WikiContext;

/// The wiki store, whole: the types the doors hand out and the traits `store_call` closures use.
pub use wiki_store as store;

/// The date library of the store's instants, for tools that compute with them.
pub use time;
