use mcp_runtime::prelude::*;

#[derive(ParamEnum)]
pub enum Mode {
    List,
    Diff(String),
}

fn main() {}
