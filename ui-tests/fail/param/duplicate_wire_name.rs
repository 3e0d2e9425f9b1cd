use mcp_runtime::prelude::*;

/// Do something.
#[mcp_tool(id = "tool", rename_all = "camelCase")]
pub struct Tool {
    /// Hidden pages too.
    show_hidden: bool,
    /// The same, spelled differently.
    #[param(rename = "showHidden")]
    hidden: bool,
}

impl Execute for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
