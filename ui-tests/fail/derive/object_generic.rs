use mcp_runtime::prelude::*;

#[derive(ParamObject)]
pub struct Wrapper<T> {
    /// The value.
    value: T,
}

fn main() {}
