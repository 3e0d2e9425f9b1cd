use mcp_runtime::prelude::*;

/// Do something.
#[mcp_tool(category = "Pages")]
pub struct Tool {
    /// The page.
    page: String,
}

impl Execute for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
