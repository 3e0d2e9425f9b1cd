use mcp_runtime::prelude::*;

/// Say hello: a tool without parameters.
#[mcp_tool(id = "no_params", category = "Fixtures")]
pub(crate) struct NoParams;

impl Execute for NoParams {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text("hello"))
    }
}
