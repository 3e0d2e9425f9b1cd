//! `#[param(cross_wiki)]`: advertised only with cross-wiki reach, always parsed (the superset),
//! so a stray `wiki` on a local endpoint reaches the reach gate instead of being ignored.

use mcp_runtime::declaration::ToolParams;
use mcp_runtime::prelude::*;

/// Read a page.
#[mcp_tool(id = "read_page")]
pub struct ReadPage {
    /// The page.
    reference: String,
    /// Another wiki to read from.
    #[param(cross_wiki)]
    wiki: Option<String>,
}

impl Execute for ReadPage {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {
    let tool = mcp_runtime::registry()
        .expect("no duplicate ids")
        .get("read_page")
        .expect("registered");
    assert!(tool.declaration().params[1].spec.cross_wiki);
    let has_wiki = |reach: bool| {
        tool.definition(reach).expect("valid schema").input_schema["properties"]
            .as_object()
            .expect("properties")
            .contains_key("wiki")
    };
    assert!(has_wiki(true));
    assert!(!has_wiki(false));

    let args = mcp_runtime::__private::serde_json::json!({ "reference": "A", "wiki": "dev" });
    let parsed = ReadPage::parse_args(args.as_object().expect("object")).expect("superset");
    assert_eq!(parsed.wiki.as_deref(), Some("dev"));
}
