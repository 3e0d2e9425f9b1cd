use mcp_runtime::prelude::*;

/// Do something.
#[mcp_tool(id = "tool")]
pub struct Tool {
    /// The page.
    page: String,
}

fn main() {}
