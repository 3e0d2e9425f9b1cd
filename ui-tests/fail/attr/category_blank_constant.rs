use mcp_runtime::prelude::*;

const CATEGORY: &str = "  ";

/// Do something.
#[mcp_tool(id = "tool", category = CATEGORY)]
pub struct Tool {}

impl Execute for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
