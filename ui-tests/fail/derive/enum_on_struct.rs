use mcp_runtime::prelude::*;

#[derive(ParamEnum)]
pub struct Mode {
    list: bool,
}

fn main() {}
