use mcp_runtime::prelude::*;

/// How to sort (the derive that makes it a parameter is missing).
pub enum Order {
    Newest,
    Oldest,
}

/// List things.
#[mcp_tool(id = "list")]
pub struct List {
    /// The order.
    order: Order,
}

impl Execute for List {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
