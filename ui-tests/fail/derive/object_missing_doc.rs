use mcp_runtime::prelude::*;

#[derive(ParamObject)]
pub struct Point {
    /// Horizontal.
    x: i64,
    y: i64,
}

fn main() {}
