use mcp_runtime::prelude::*;

/// A result that derives nothing.
pub struct Answer {
    /// The value.
    pub value: u32,
}

/// Do something.
#[mcp_tool(id = "tool", output = Answer)]
pub struct Tool {}

impl Execute<Structured<Answer>> for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult<Structured<Answer>> {
        Ok(Structured::new(Answer { value: 1 }, "1"))
    }
}

fn main() {}
