use mcp_runtime::prelude::*;

/// Do something.
#[mcp_tool(id = "get_history", name = "history")]
pub struct Tool {}

impl Execute for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
