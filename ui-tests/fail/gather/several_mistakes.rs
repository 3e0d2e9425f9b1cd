use mcp_runtime::prelude::*;

#[mcp_tool(id = "bad id", colour = "red")]
pub struct Tool {
    page: String,
    /// Rows.
    #[param(range = 9..=1)]
    limit: i64,
}

impl Execute for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
