//! Testing wiki tools through the real server (cargo feature `testing`).
//!
//! A tool author's tests should run their tools the way agents will: resolved in the caller's
//! tool list, parsed by the parser `#[mcp_tool]` generated, with the caller's doors, under the
//! timeout, the panic boundary and the audit line. So this module drives
//! [`Manager::call`](crate::Manager::call), the one call path the rmcp handler, the direct HTTP
//! answer and stdio use, over a throw-away farm (a temporary SQLite file, or a fresh PostgreSQL
//! database); nothing here dispatches a tool itself.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use serde_json::json;
//! use wiki_tool_sdk::store::rights::Right;
//! use wiki_server::testing::TestFarm;
//!
//! // An empty farm (the main wiki), with a user who may view and edit it, and one page.
//! let farm = TestFarm::empty();
//! farm.add_user("alice")
//!     .allow_on_wiki("alice", "main", &[Right::View, Right::Edit]);
//! farm.save("Sandbox.WebHome", "# Sandbox\n");
//!
//! let alice = farm.user("alice");
//! let catalog = alice.call("man", json!({})).await.expect_text();
//! assert!(catalog.starts_with("Available tools"));
//! let refused = alice.call("man", json!({"bogus": 1})).await.expect_error();
//! assert!(refused.contains("bogus"));
//! # }
//! ```
//!
//! - [`TestFarm`]: the farm (empty, or seeded by a function of yours, e.g. the stock demo farm's
//!   `wiki_mcp_cli::farm::seed`), its store, users and rights, wiki configuration;
//! - [`As`]: a caller (a user or the guest, on a wiki): `call`, `tools_list`; `answering` gives
//!   it a person who answers confirmation questions (see below);
//! - [`Called`]: what a call returned, with its text, error text and structured content, and
//!   the questions its person was asked;
//! - [`golden`]: committed snapshots of outputs, re-blessed with `BLESS=1`;
//! - [`Backend`], [`TestDatabase`]: which store a farm runs on (wiki-store's, re-exported), and
//!   one farm's database. A farm made without naming a backend is on [`Backend::current`]: the
//!   backend of the trial when the test is a `wiki_store::testing::backend_test`, which runs
//!   one test on every backend; SQLite anywhere else.
//!
//! Setup failures panic with what failed: this is test code, and a failed setup is a failed test.
//!
//! # Confirmations
//!
//! A write asks the person using the agent's client first when its tool is declared `confirm`
//! or the wiki has `confirm_writes=true`. A caller made with [`As::answering`] has a client that
//! can ask and a person who gives every question the same [`Answer`]; [`Called::questions`]
//! says what they were asked. Any other caller's client cannot ask, and such a write is refused:
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use serde_json::json;
//! use wiki_server::testing::{Answer, TestFarm};
//! use wiki_tool_sdk::prelude::*;
//!
//! /// Replace a document's content.
//! #[mcp_tool(id = "replace_page", write, confirm, category = "Example")]
//! pub struct ReplacePage {
//!     /// The document, e.g. "Sandbox.WebHome".
//!     reference: String,
//!     /// Its new content.
//!     content: String,
//! }
//!
//! impl Execute for ReplacePage {
//!     async fn execute(self, ctx: &ToolContext) -> ToolResult {
//!         let door = ctx.doors()?.write()?;
//!         let target = door.target(&self.reference, None, None, Right::Edit).await?;
//!         let base = target.base(None, BaseRule::OptionalLock, "call replace_page again")?;
//!         let change = RowChange { content: self.content, title: None, major: false };
//!         door.save(&target, change, Comment::new(None, "Replaced"), base).await?;
//!         Ok(ToolOutput::text("Replaced."))
//!     }
//! }
//!
//! let farm = TestFarm::empty();
//! farm.add_user("alice")
//!     .allow_on_wiki("alice", "main", &[Right::View, Right::Edit]);
//! farm.enable_tools("main", &["replace_page"]);
//! farm.save("Sandbox.WebHome", "# Sandbox\n");
//! let change = json!({"reference": "Sandbox.WebHome", "content": "# Replaced\n"});
//!
//! let unasked = farm.user("alice").call("replace_page", change.clone()).await;
//! assert!(unasked.expect_error().contains("your client cannot ask"));
//!
//! let declined = farm.user("alice").answering(Answer::Declined).call("replace_page", change.clone()).await;
//! assert!(declined.expect_error().contains("declined"));
//! let question = &declined.questions()[0];
//! assert!(question.contains("main:Sandbox.WebHome"), "{question}");
//!
//! let accepted = farm.user("alice").answering(Answer::Accepted).call("replace_page", change).await;
//! assert_eq!(accepted.expect_text(), "Replaced.");
//! assert_eq!(accepted.questions().len(), 1);
//! # }
//! ```

mod called;
mod farm;
pub mod golden;
mod peak_memory;
mod person;

pub use called::Called;
pub use farm::{As, TestFarm};
pub use mcp_runtime::elicit::Answer;
pub use peak_memory::PeakMemory;
pub use wiki_store::testing::{Backend, TEST_DATABASE_VAR, TestDatabase};

/// Unwraps a setup step, naming what failed.
#[track_caller]
fn setup<T, E: std::fmt::Display>(what: &str, result: Result<T, E>) -> T {
    result.unwrap_or_else(|error| panic!("test farm: cannot {what}: {error}"))
}
