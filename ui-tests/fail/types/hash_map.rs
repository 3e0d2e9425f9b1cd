use mcp_runtime::prelude::*;

use std::collections::HashMap;

/// Do something.
#[mcp_tool(id = "tool")]
pub struct Tool {
    /// Values.
    values: HashMap<String, i64>,
}

impl Execute for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
