use mcp_runtime::prelude::*;

#[derive(ParamObject)]
pub enum Point {
    Origin,
}

fn main() {}
