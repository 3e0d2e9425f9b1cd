use mcp_runtime::prelude::*;

#[derive(ParamObject)]
pub struct Point {
    /// Horizontal.
    #[param(default = 0)]
    x: i64,
}

fn main() {}
