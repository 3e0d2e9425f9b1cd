//! Both derives on their own: `ParamEnum` wire values (snake_case, `rename`), refusal listing the
//! accepted values; `ParamObject` with renamed properties, optional fields, nested objects, and
//! serde errors naming the parameter. The author needs no serde or schemars dependency.

use mcp_runtime::declaration::ToolParams;
use mcp_runtime::prelude::*;

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, ParamEnum)]
pub enum Format {
    /// Wiki source.
    Source,
    /// Rendered HTML.
    RenderedHtml,
    /// Plain text, sent as `txt`.
    #[param(rename = "txt")]
    PlainText,
}

/// A cell.
#[derive(Debug, PartialEq, ParamObject)]
#[param(rename_all = "camelCase")]
pub struct Cell {
    /// Column name.
    column_name: String,
    /// The value.
    value: Option<String>,
    /// Where it came from.
    origin: Option<Origin>,
}

/// A nested object.
#[derive(Debug, PartialEq, ParamObject)]
pub struct Origin {
    /// The page.
    #[param(rename = "ref")]
    reference: String,
}

/// Export rows.
#[mcp_tool(id = "export")]
pub struct Export {
    /// The format.
    format: Format,
    /// Cells to write.
    cells: Vec<Cell>,
}

impl Execute for Export {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {
    assert_eq!(
        <Format as mcp_runtime::param::ParamEnum>::VALUES,
        ["source", "rendered_html", "txt"]
    );
    assert_eq!(Format::PlainText.to_wire(), "txt");
    assert_eq!(
        Format::from_wire("rendered_html"),
        Some(Format::RenderedHtml)
    );

    let args = mcp_runtime::__private::serde_json::json!({
        "format": "txt",
        "cells": [
            {"columnName": "title", "value": "T", "origin": {"ref": "A.B"}},
            {"columnName": "empty"}
        ]
    });
    let parsed = Export::parse_args(args.as_object().expect("object")).expect("parses");
    assert_eq!(parsed.format, Format::PlainText);
    assert_eq!(
        parsed.cells,
        [
            Cell {
                column_name: "title".to_owned(),
                value: Some("T".to_owned()),
                origin: Some(Origin {
                    reference: "A.B".to_owned()
                }),
            },
            Cell {
                column_name: "empty".to_owned(),
                value: None,
                origin: None,
            },
        ]
    );

    let bad_format = mcp_runtime::__private::serde_json::json!({ "format": "pdf", "cells": [] });
    let error = Export::parse_args(bad_format.as_object().expect("object"))
        .err()
        .expect("refused");
    assert_eq!(
        error.to_string(),
        "Error: 'format' must be one of: source, rendered_html, txt (got \"pdf\")."
    );

    let unknown_property = mcp_runtime::__private::serde_json::json!({
        "format": "source",
        "cells": [{"column_name": "x"}]
    });
    let error = Export::parse_args(unknown_property.as_object().expect("object"))
        .err()
        .expect("unknown properties refused");
    assert!(error.to_string().starts_with("Error: 'cells' "), "{error}");

    let schema = &mcp_runtime::registry()
        .expect("no duplicate ids")
        .get("export")
        .expect("registered")
        .definition(mcp_runtime::SchemaVariant::Standard)
        .expect("valid, flat schema")
        .input_schema;
    assert_eq!(
        schema["properties"]["format"]["enum"],
        mcp_runtime::__private::serde_json::json!(["source", "rendered_html", "txt"])
    );
    let cell = &schema["properties"]["cells"]["items"];
    assert_eq!(
        cell["properties"]["columnName"]["description"],
        "Column name."
    );
    assert_eq!(
        cell["properties"]["origin"]["properties"]["ref"]["type"],
        "string"
    );
}
