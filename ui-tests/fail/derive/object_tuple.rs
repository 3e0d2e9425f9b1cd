use mcp_runtime::prelude::*;

#[derive(ParamObject)]
pub struct Point(i64, i64);

fn main() {}
