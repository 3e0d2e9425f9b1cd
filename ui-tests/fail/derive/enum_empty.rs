use mcp_runtime::prelude::*;

#[derive(ParamEnum)]
pub enum Never {}

fn main() {}
