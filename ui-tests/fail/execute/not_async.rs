use mcp_runtime::prelude::*;

/// Greet someone.
#[mcp_tool(id = "greet")]
pub struct Greet {
    /// Who to greet.
    name: String,
}

impl Execute for Greet {
    fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(format!("Hello, {}!", self.name)))
    }
}

fn main() {}
