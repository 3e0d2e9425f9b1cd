use mcp_runtime::prelude::*;

#[derive(ParamEnum)]
pub enum Mode<T> {
    List,
    Other(T),
}

fn main() {}
