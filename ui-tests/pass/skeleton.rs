//! A first tool: parameters, defaults, ranges, parse through the declaration.

use mcp_macros::mcp_tool;
use mcp_runtime::__private::{ToolDeclaration, ToolParams, inventory};
use mcp_runtime::tool::{Execute, ToolContext, ToolOutput, ToolResult};

/// Read a document's revision history. Lists revisions newest first,
/// or shows one revision.
///
/// More prose.
#[mcp_tool(id = "get_history", category = "Search and Navigation")]
pub struct GetHistory {
    /// The document to read.
    reference: String,
    /// Revisions per page.
    #[param(default = 20, range = 1..=100)]
    limit: i64,
    /// Optional wiki id.
    #[param(cross_wiki)]
    wiki: Option<String>,
}

impl Execute for GetHistory {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(format!(
            "{} {} {:?}",
            self.reference, self.limit, self.wiki
        )))
    }
}

fn main() {
    let decl = inventory::iter::<ToolDeclaration>
        .into_iter()
        .find(|d| d.id == "get_history")
        .expect("registered");
    assert_eq!(decl.summary, "Read a document's revision history.");
    assert_eq!(
        decl.description,
        "Read a document's revision history. Lists revisions newest first, or shows one revision.\n\nMore prose."
    );
    assert_eq!(decl.category, "Search and Navigation");
    assert_eq!(decl.params.len(), 3);
    assert_eq!(decl.params[1].spec.range, Some((1, 100)));
    let args = serde_json_args();
    let parsed = GetHistory::parse_args(&args).expect("parses");
    assert_eq!(parsed.reference, "Sandbox.WebHome");
}

fn serde_json_args() -> mcp_runtime::__private::JsonObject {
    match mcp_runtime::__private::serde_json::json!({"reference": " Sandbox.WebHome "}) {
        mcp_runtime::__private::serde_json::Value::Object(map) => map,
        _ => unreachable!(),
    }
}
