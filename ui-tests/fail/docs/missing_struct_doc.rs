use mcp_runtime::prelude::*;

// A plain comment is not a doc comment.
#[mcp_tool(id = "tool")]
pub struct Tool {}

impl Execute for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
