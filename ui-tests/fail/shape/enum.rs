use mcp_runtime::prelude::*;

/// Do something.
#[mcp_tool(id = "tool")]
pub enum Tool {
    A,
    B,
}

fn main() {}
