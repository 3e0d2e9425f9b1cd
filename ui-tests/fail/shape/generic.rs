use mcp_runtime::prelude::*;

/// Do something.
#[mcp_tool(id = "tool")]
pub struct Tool<T> {
    /// A value.
    value: T,
}

fn main() {}
