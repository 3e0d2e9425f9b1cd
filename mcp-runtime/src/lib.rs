//! A framework for MCP (Model Context Protocol) tools: a tool is one struct, whose fields are its
//! parameters and whose doc comments are what the agent reads. [`#[mcp_tool]`](prelude::mcp_tool)
//! derives both the advertised JSON Schema and the argument parsing from that one declaration,
//! so the two cannot drift; a bad argument gets a message naming the parameter and what it
//! accepts.
//!
//! Around the tools: the registry of every `#[mcp_tool]` linked into the binary
//! ([`registry()`]), the set a server serves ([`ToolSet`]), the one transport-free way a tool
//! runs ([`call::call`]: parsing, a timeout, a panic boundary, an audit event), and an rmcp
//! handler ([`handler::ToolHandler`]) that serves a set over any rmcp transport. Nothing here
//! knows what the tools work on: a server attaches what its tools need to each call's
//! [`ToolContext`] as typed extensions.
//!
//! # A complete server
//!
//! One tool, served over stdin and stdout (the binary also depends on `rmcp` with its
//! `transport-io` feature, and on `tokio`):
//!
//! ```no_run
//! use mcp_runtime::handler::ToolHandler;
//! use mcp_runtime::prelude::*;
//! use mcp_runtime::{SchemaVariant, ToolSet};
//! use rmcp::ServiceExt;
//!
//! /// Greet someone by name.
//! ///
//! /// The greeting is repeated as often as asked.
//! #[mcp_tool(id = "greet", category = "Examples")]
//! pub struct Greet {
//!     /// Who to greet.
//!     name: String,
//!     /// How many times to greet (default 1, at most 3).
//!     #[param(default = 1, range = 1..=3)]
//!     times: usize,
//! }
//!
//! impl Execute for Greet {
//!     async fn execute(self, _ctx: &ToolContext) -> ToolResult {
//!         let line = format!("Hello, {}!", self.name);
//!         Ok(ToolOutput::text(vec![line; self.times].join("\n")))
//!     }
//! }
//!
//! #[tokio::main(flavor = "current_thread")]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // Every linked #[mcp_tool], its schema built once; a duplicate id is an error here.
//!     let tools = ToolSet::from_registry(mcp_runtime::registry()?, SchemaVariant::Standard)?;
//!     let info = rmcp::model::Implementation::new("greeter", "1.0.0");
//!     let running = ToolHandler::new(tools, info).serve(rmcp::transport::stdio()).await?;
//!     running.waiting().await?;
//!     Ok(())
//! }
//! ```
//!
//! # Calling a tool in a test
//!
//! [`call::call`] is the path every transport takes, so a test of a tool needs no client:
//!
//! ```
//! # use mcp_runtime::prelude::*;
//! # /// Greet someone by name.
//! # #[mcp_tool(id = "greet", category = "Examples")]
//! # pub struct Greet {
//! #     /// Who to greet.
//! #     name: String,
//! #     /// How many times to greet (default 1, at most 3).
//! #     #[param(default = 1, range = 1..=3)]
//! #     times: usize,
//! # }
//! # impl Execute for Greet {
//! #     async fn execute(self, _ctx: &ToolContext) -> ToolResult {
//! #         let line = format!("Hello, {}!", self.name);
//! #         Ok(ToolOutput::text(vec![line; self.times].join("\n")))
//! #     }
//! # }
//! use mcp_runtime::call::{CallSettings, ToolCall, call};
//! use mcp_runtime::{SchemaVariant, ToolSet};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let tools = ToolSet::from_registry(mcp_runtime::registry()?, SchemaVariant::Standard)?;
//! let run = async |arguments: serde_json::Value| {
//!     let arguments = arguments.as_object().cloned().unwrap_or_default();
//!     let result = call(
//!         &tools,
//!         ToolCall::new("greet", arguments),
//!         ToolContext::new(None), // a guest: no user behind the call
//!         &CallSettings::default(),
//!     )
//!     .await?;
//!     let text = result.content[0].as_text().map(|text| text.text.clone());
//!     Ok::<_, rmcp::ErrorData>((result.is_error, text.unwrap_or_default()))
//! };
//!
//! let (failed, text) = run(serde_json::json!({"name": "Ada", "times": 2})).await?;
//! assert_eq!((failed, text.as_str()), (Some(false), "Hello, Ada!\nHello, Ada!"));
//!
//! // Out of range: an error result the agent can act on, naming the parameter.
//! let (failed, text) = run(serde_json::json!({"name": "Ada", "times": 9})).await?;
//! assert_eq!(failed, Some(true));
//! assert!(text.contains("times"), "{text}");
//! # Ok(())
//! # }
//! ```
//!
//! # Parameter types
//!
//! | Field type | Schema | Notes |
//! |---|---|---|
//! | `String`, `Option<String>` | `string` | trimmed, blank refused (`Option`: blank is absent); `#[param(raw)]` keeps it as sent |
//! | [`Keep<String>`](param::Keep) | `string` | optional, but an empty value sent stays distinct from an absent one |
//! | `bool`, `Option<bool>` | `boolean` | |
//! | `i64`, `u32`, `u64`, `usize` and their `Option`s | `integer` | `default`, `range` (`1..=100`, or `1..` for a minimum alone), `clamp`; unsigned types advertise `minimum: 0` |
//! | `f64`, `Option<f64>` | `number` | finite only; `default`, `range`, `clamp` |
//! | `Vec<String>` | `array` of `string` | optional unless `#[param(required)]` |
//! | `BTreeMap<String, String>` | `object` | optional unless `#[param(required)]` |
//! | `#[derive(ParamEnum)]` unit enum, or its `Option` | `string` with its values | each variant's doc comment describes its value |
//! | `#[derive(ParamObject)]` struct, its `Option` or `Vec` | `object` | fields declared as a tool's fields are |
//! | `#[param(flatten)]` on a `ParamObject` field | its fields, as top-level parameters | a group of parameters shared by several tools, documented once |
//!
//! Any other type is a compile error on the field's type, listing these. Every key is checked
//! against the field's type when the tool is compiled: `range` on a `String`, or a `default`
//! outside the range, is an error on the key.
//!
//! ```
//! use mcp_runtime::prelude::*;
//!
//! /// How a search matches its words.
//! #[derive(ParamEnum)]
//! pub enum Matching {
//!     /// Every word must occur.
//!     All,
//!     /// One word is enough.
//!     Any,
//! }
//!
//! /// The paging parameters every listing tool takes.
//! #[derive(ParamObject)]
//! pub struct Paging {
//!     /// How many results to return (default 20, at most 100).
//!     #[param(default = 20, range = 1..=100)]
//!     limit: u32,
//!     /// How many results to skip first.
//!     #[param(default = 0)]
//!     offset: u64,
//! }
//!
//! /// Search the notes.
//! #[mcp_tool(id = "search_notes", category = "Examples")]
//! pub struct SearchNotes {
//!     /// The words to look for.
//!     words: Vec<String>,
//!     /// How the words match (default all).
//!     matching: Option<Matching>,
//!     /// Only notes scoring at least this much, from 0 to 1.
//!     #[param(range = 0.0..=1.0)]
//!     min_score: Option<f64>,
//!     /// Which page of results.
//!     #[param(flatten)]
//!     paging: Paging,
//! }
//! # impl Execute for SearchNotes {
//! #     async fn execute(self, _ctx: &ToolContext) -> ToolResult {
//! #         Ok(ToolOutput::text("none"))
//! #     }
//! # }
//! ```

// Lets this crate's own tests use its derives: generated code names `::mcp_runtime::__private::…`.
extern crate self as mcp_runtime;

pub mod audit;
pub mod call;
pub mod context;
pub mod declaration;
pub mod definition;
pub mod elicit;
mod error;
pub mod handler;
mod invoke;
pub mod output;
pub mod param;
pub mod prelude;
pub mod reason;
pub mod registry;
pub mod schema;
pub mod signals;
pub mod structured;
pub mod tool;
pub mod toolset;

pub use context::ToolContext;
pub use definition::{ToolAnnotations, ToolDefinition};
pub use error::Error;
pub use registry::{RegisteredTool, Registry, Reserved, registry};
pub use schema::SchemaVariant;
pub use toolset::{ServedTool, ToolSet};

#[doc(hidden)]
pub mod __private;
