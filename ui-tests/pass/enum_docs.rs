//! `ParamEnum` variant doc comments reach the schema as a list after the field's description,
//! beside a plain `enum` (the form every common client accepts; a `oneOf` of `const`s is not).

use mcp_runtime::SchemaVariant;
use mcp_runtime::__private::serde_json::json;
use mcp_runtime::prelude::*;

/// Which links to show.
#[derive(Debug, PartialEq, ParamEnum)]
pub enum Direction {
    /// Documents linking to this one.
    In,
    /// Links written in this document,
    /// in the order they appear.
    Out,
    Both,
}

/// Show links.
#[mcp_tool(id = "links")]
pub struct Links {
    /// Which links to show.
    direction: Option<Direction>,
}

impl Execute for Links {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {
    assert_eq!(Direction::DOCS[2], "");
    let schema = &mcp_runtime::registry()
        .expect("no duplicate ids")
        .get("links")
        .expect("registered")
        .definition(SchemaVariant::Standard)
        .expect("valid, flat schema")
        .input_schema;
    assert_eq!(
        schema["properties"]["direction"],
        json!({
            "type": "string",
            "description": "Which links to show.\n- in: Documents linking to this one.\n- out: Links written in this document, in the order they appear.\n- both",
            "enum": ["in", "out", "both"]
        })
    );
}
