use mcp_runtime::prelude::*;

/// Do something.
#[mcp_tool(id = "tool")]
pub struct Tool(String);

fn main() {}
