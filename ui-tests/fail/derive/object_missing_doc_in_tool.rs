use mcp_runtime::prelude::*;

/// A point.
#[derive(ParamObject)]
pub struct Point {
    /// Horizontal.
    x: i64,
    y: i64,
}

/// Do something.
#[mcp_tool(id = "tool")]
pub struct Tool {
    /// Where.
    at: Point,
    /// More points.
    more: Vec<Point>,
}

impl Execute for Tool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {}
