use mcp_runtime::prelude::*;

/// Do something.
#[mcp_tool(id = "tool")]
pub struct Tool {
    /// A ratio.
    ratio: f32,
}

impl Execute for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
