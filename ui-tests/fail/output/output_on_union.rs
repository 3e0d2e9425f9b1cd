use mcp_runtime::prelude::*;

/// Not a result.
#[mcp_output]
pub union Answer {
    value: u32,
}

fn main() {}
