//! Generated code survives an author's crate that shadows common names (`Result`, `Option`,
//! `str`, `serde_json`, `inventory`), and distinct ids never collide, even `a-b` and `a_b`
//! (the hidden item that catches duplicate ids must tell them apart).

#![allow(dead_code, non_camel_case_types)]

use mcp_runtime::prelude::*;

type Result<T> = std::result::Result<T, ()>;
struct Option;
struct str;
mod serde_json {}
mod inventory {}

mod first {
    use mcp_runtime::prelude::*;

    /// Dashed id.
    #[mcp_tool(id = "a-b")]
    pub struct Dashed;

    impl Execute for Dashed {
        async fn execute(self, _ctx: &ToolContext) -> ToolResult {
            Ok(ToolOutput::text(""))
        }
    }
}

/// Underscored id.
#[mcp_tool(id = "a_b")]
pub struct Underscored {
    /// A value.
    value: std::option::Option<String>,
}

impl Execute for Underscored {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {
    let registry = mcp_runtime::registry().expect("no duplicate ids");
    assert!(registry.get("a-b").is_some());
    assert!(registry.get("a_b").is_some());
}
