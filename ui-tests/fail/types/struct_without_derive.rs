use mcp_runtime::prelude::*;

pub struct Target {
    pub page: String,
}

/// Do something.
#[mcp_tool(id = "tool")]
pub struct Tool {
    /// Where to go.
    target: Target,
}

impl Execute for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
