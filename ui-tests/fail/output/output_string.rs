use mcp_runtime::prelude::*;

/// A result.
#[mcp_output]
pub struct Answer {
    /// The value.
    value: u32,
}

/// Do something.
#[mcp_tool(id = "tool", output = "Answer")]
pub struct Tool {}

fn main() {}
