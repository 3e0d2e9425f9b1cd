use mcp_runtime::prelude::*;

/// Paging.
#[derive(ParamObject)]
pub struct Paging {
    /// The first item.
    offset: Option<u32>,
}

/// Do something.
#[mcp_tool(id = "tool")]
pub struct Tool {
    /// Paging.
    #[param(flatten, rename = "page")]
    paging: Paging,
}

impl Execute for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
