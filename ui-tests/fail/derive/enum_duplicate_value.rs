use mcp_runtime::prelude::*;

#[derive(ParamEnum)]
pub enum Mode {
    List,
    #[param(rename = "list")]
    Listing,
}

fn main() {}
