use mcp_runtime::prelude::*;

mod framework {}

/// How much to show.
#[derive(ParamEnum)]
#[param(crate = "crate::framework::runtime")]
pub enum Detail {
    /// Titles only.
    Brief,
}

fn main() {}
