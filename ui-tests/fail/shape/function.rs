use mcp_runtime::prelude::*;

/// Do something.
#[mcp_tool(id = "tool")]
pub fn tool() {}

fn main() {}
