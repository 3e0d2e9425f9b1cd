use mcp_runtime::prelude::*;

/// Do something.
#[mcp_tool(id = "tool")]
pub union Tool {
    /// A number.
    number: i64,
}

fn main() {}
