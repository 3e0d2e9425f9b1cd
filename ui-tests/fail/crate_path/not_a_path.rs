use mcp_runtime::prelude::*;

/// Find notes.
#[mcp_tool(id = "find_notes", crate = "my framework")]
pub struct FindNotes {
    /// The query.
    query: String,
}

impl Execute for FindNotes {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(self.query))
    }
}

fn main() {}
