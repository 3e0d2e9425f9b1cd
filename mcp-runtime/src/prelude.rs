//! Everything a tool author needs: `use mcp_runtime::prelude::*;`.
//!
//! The derives share their traits' names (as serde's `Serialize` does): `#[derive(ParamEnum)]`
//! is the macro, `ParamEnum::VALUES` the trait.

pub use crate::context::ToolContext;
pub use crate::param::{Keep, ParamEnum, ParamObject};
pub use crate::reason::ErrorKind;
pub use crate::signals::{CancellationToken, ProgressReporter, ScanSignals};
pub use crate::tool::{Execute, Structured, ToolError, ToolOutput, ToolResult};
pub use mcp_macros::{ParamEnum, ParamObject, mcp_output, mcp_tool};
