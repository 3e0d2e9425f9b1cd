//! `#[param(extended)]`: advertised only in the extended schema variant, always parsed, so an
//! argument a standard-variant client should not have sent reaches the server's own check
//! instead of being refused as unknown.

use mcp_runtime::SchemaVariant;
use mcp_runtime::declaration::ToolParams;
use mcp_runtime::prelude::*;

/// Read a page.
#[mcp_tool(id = "read_page")]
pub struct ReadPage {
    /// The page.
    reference: String,
    /// Another source to read from.
    #[param(extended)]
    source: Option<String>,
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
    assert!(tool.declaration().params[1].spec.extended);
    let has_source = |variant| {
        tool.definition(variant).expect("valid schema").input_schema["properties"]
            .as_object()
            .expect("properties")
            .contains_key("source")
    };
    assert!(has_source(SchemaVariant::Extended));
    assert!(!has_source(SchemaVariant::Standard));

    let args = mcp_runtime::__private::serde_json::json!({ "reference": "A", "source": "dev" });
    let parsed = ReadPage::parse_args(args.as_object().expect("object")).expect("every parameter");
    assert_eq!(parsed.source.as_deref(), Some("dev"));
}
