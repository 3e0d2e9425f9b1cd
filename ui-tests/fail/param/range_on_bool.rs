use mcp_runtime::prelude::*;

/// Do something.
#[mcp_tool(id = "tool")]
pub struct Tool {
    /// A flag.
    #[param(range = 0..=1)]
    flag: bool,
}

impl Execute for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
