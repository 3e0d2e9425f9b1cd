use mcp_runtime::prelude::*;

/// Do something.
#[mcp_tool(id = "tool")]
pub struct Tool {
    /// Rows.
    #[param(default = 0, range = 1..)]
    limit: i64,
}

impl Execute for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
