use mcp_runtime::prelude::*;

mod pages {
    use super::*;

    /// Read a page.
    #[mcp_tool(id = "read")]
    pub struct ReadPage;

    impl Execute for ReadPage {
        async fn execute(self, _ctx: &ToolContext) -> ToolResult {
            Ok(ToolOutput::text(""))
        }
    }
}

mod files {
    use super::*;

    /// Read a file.
    #[mcp_tool(id = "read")]
    pub struct ReadFile;

    impl Execute for ReadFile {
        async fn execute(self, _ctx: &ToolContext) -> ToolResult {
            Ok(ToolOutput::text(""))
        }
    }
}

fn main() {}
