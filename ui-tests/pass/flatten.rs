//! `#[param(flatten)]`: a `ParamObject`'s fields as top-level parameters of every tool that
//! flattens it, declared and documented once (keys included), in the field's place; a group can
//! flatten another.

use mcp_runtime::SchemaVariant;
use mcp_runtime::__private::serde_json::{Value, json};
use mcp_runtime::declaration::ToolParams;
use mcp_runtime::prelude::*;

/// Where a write lands.
#[derive(Debug, PartialEq, ParamObject)]
pub struct Target {
    /// Another source to write in.
    #[param(extended)]
    source: Option<String>,
}

/// What every write takes.
#[derive(Debug, PartialEq, ParamObject)]
pub struct WriteParams {
    /// Why you made the change.
    #[param(raw)]
    comment: Option<String>,
    /// Record a major version.
    major: bool,
    /// The version you read, if any.
    #[param(range = 1..=1000000)]
    base_version: Option<u32>,
    /// The target.
    #[param(flatten)]
    target: Target,
}

/// Write a page.
#[mcp_tool(id = "write_page", write)]
pub struct WritePage {
    /// The page.
    reference: String,
    /// Shared write parameters.
    #[param(flatten)]
    write: WriteParams,
    /// The new content.
    #[param(raw)]
    content: String,
}

/// Delete a page.
#[mcp_tool(id = "delete_page", write)]
pub struct DeletePage {
    /// The page.
    reference: String,
    #[param(flatten)]
    write: WriteParams,
}

impl Execute for WritePage {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

impl Execute for DeletePage {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn schema(id: &str, variant: SchemaVariant) -> Value {
    let definition = mcp_runtime::registry()
        .expect("no duplicate ids")
        .get(id)
        .expect("registered")
        .definition(variant)
        .expect("valid, flat schema");
    Value::Object((*definition.input_schema).clone())
}

fn names(schema: &Value) -> Vec<String> {
    schema["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .cloned()
        .collect()
}

fn main() {
    let write = schema("write_page", SchemaVariant::Extended);
    assert_eq!(
        names(&write),
        ["reference", "comment", "major", "base_version", "source", "content"]
    );
    assert_eq!(write["required"], json!(["reference", "content"]));
    assert_eq!(
        names(&schema("write_page", SchemaVariant::Standard)),
        ["reference", "comment", "major", "base_version", "content"]
    );
    // One declaration, one set of docs: the shared parameters read alike in every tool.
    let delete = schema("delete_page", SchemaVariant::Extended);
    for name in ["comment", "major", "base_version", "source"] {
        assert_eq!(write["properties"][name], delete["properties"][name], "{name}");
    }
    assert_eq!(
        delete["properties"]["base_version"],
        json!({"type": "integer", "description": "The version you read, if any.", "minimum": 1, "maximum": 1000000})
    );

    let args = json!({"reference": "A", "content": " x ", "comment": " why ", "major": "true",
                      "source": "dev"});
    let parsed = WritePage::parse_args(args.as_object().expect("object")).expect("parses");
    assert_eq!(parsed.content, " x ");
    assert_eq!(
        parsed.write,
        WriteParams {
            comment: Some(" why ".to_owned()),
            major: true,
            base_version: None,
            target: Target {
                source: Some("dev".to_owned())
            },
        }
    );
    let refused = DeletePage::parse_args(
        json!({"reference": "A", "content": "x"})
            .as_object()
            .expect("object"),
    )
    .err()
    .map(|e| e.to_string());
    assert_eq!(
        refused.as_deref(),
        Some(
            "Error: 'content' is not a parameter of this tool. Accepted parameters: reference, \
             comment, major, base_version, source."
        )
    );
    let refused = DeletePage::parse_args(
        json!({"reference": "A", "base_version": 0})
            .as_object()
            .expect("object"),
    )
    .err()
    .map(|e| e.to_string());
    assert_eq!(
        refused.as_deref(),
        Some("Error: 'base_version' must be between 1 and 1000000 (got 0).")
    );
}
