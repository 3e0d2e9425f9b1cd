use mcp_runtime::prelude::*;

/// Do something.
#[mcp_tool(id = "tool", confirm)]
pub struct Tool {}

impl Execute for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
