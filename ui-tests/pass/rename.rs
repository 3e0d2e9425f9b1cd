//! `rename_all` renames every field; `#[param(rename)]` overrides one; raw identifiers lose `r#`.

use mcp_runtime::declaration::ToolParams;
use mcp_runtime::prelude::*;

/// List pages.
#[mcp_tool(id = "list_pages", rename_all = "camelCase")]
pub struct ListPages {
    /// Include hidden pages.
    show_hidden: bool,
    /// The space, sent as `spaceRef`.
    #[param(rename = "spaceRef")]
    space_reference: Option<String>,
    /// A keyword as a field name.
    r#type: Option<String>,
}

impl Execute for ListPages {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

/// Read a page.
#[mcp_tool(id = "read_page")]
pub struct ReadPage {
    /// Without rename_all, the field name as written.
    show_hidden: bool,
}

impl Execute for ReadPage {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {
    let wires = |id: &str| -> Vec<&'static str> {
        mcp_runtime::registry()
            .expect("no duplicate ids")
            .get(id)
            .expect("registered")
            .declaration()
            .params
            .iter()
            .map(|p| p.spec.name)
            .collect()
    };
    assert_eq!(wires("list_pages"), ["showHidden", "spaceRef", "type"]);
    assert_eq!(wires("read_page"), ["show_hidden"]);

    let args = mcp_runtime::__private::serde_json::json!({
        "showHidden": true,
        "spaceRef": "Sandbox",
        "type": "x"
    });
    let parsed = ListPages::parse_args(args.as_object().expect("object")).expect("parses");
    assert!(parsed.show_hidden);
    assert_eq!(parsed.space_reference.as_deref(), Some("Sandbox"));
    assert_eq!(parsed.r#type.as_deref(), Some("x"));

    let rust_name = mcp_runtime::__private::serde_json::json!({ "show_hidden": true });
    assert!(ListPages::parse_args(rust_name.as_object().expect("object")).is_err());
}
