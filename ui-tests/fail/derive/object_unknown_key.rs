use mcp_runtime::prelude::*;

#[derive(ParamObject)]
pub struct Point {
    /// Horizontal.
    #[param(max = 0)]
    x: i64,
}

fn main() {}
