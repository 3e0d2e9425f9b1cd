//! `category` may name a `&str` constant (a server's shared list), not only a literal: the
//! declaration carries the constant's text.

use mcp_runtime::prelude::*;

mod categories {
    pub const PAGES: &str = "Pages";
}

/// Read a page.
#[mcp_tool(id = "read_page", category = categories::PAGES)]
pub struct ReadPage {}

impl Execute for ReadPage {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {
    let registry = mcp_runtime::registry().expect("no duplicate ids");
    let declaration = registry.get("read_page").expect("registered").declaration();
    assert_eq!(declaration.category, "Pages");
}
