//! The served definitions: schema shape, declaration order, schema variants, annotations.

use mcp_runtime::SchemaVariant::{Extended, Standard};
use mcp_runtime::ToolAnnotations;
use serde_json::{Value, json};

use crate::harness::{schema, tool};

fn property_names(schema: &Value) -> Vec<&str> {
    schema["properties"]
        .as_object()
        .map(|properties| properties.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

#[test]
fn properties_follow_declaration_order_and_required_lists_what_the_parser_requires() {
    let schema = schema("every_kind", Extended);
    assert_eq!(
        property_names(&schema),
        [
            "reference",
            "content",
            "locale",
            "comment",
            "limit",
            "context",
            "version",
            "offset",
            "size",
            "ratio",
            "weight",
            "start",
            "count",
            "hidden",
            "minor",
            "spaces",
            "fields",
            "mode",
            "diff_mode",
            "filter",
            "filters",
            "extra",
            "source"
        ]
    );
    assert_eq!(
        schema["required"],
        json!(["reference", "content", "version", "mode", "filter"])
    );
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["additionalProperties"], false);
}

#[test]
fn each_kind_advertises_its_constraints() {
    let schema = schema("every_kind", Extended);
    let properties = &schema["properties"];
    assert_eq!(
        properties["reference"],
        json!({"type": "string", "description": "A required, trimmed, non-blank string.",
               "pattern": "\\S"})
    );
    assert_eq!(
        properties["limit"],
        json!({"type": "integer", "description": "Rows per page (default 20, 1 to 100).",
               "minimum": 1, "maximum": 100, "default": 20})
    );
    assert_eq!(
        properties["mode"]["enum"],
        json!(["source", "rendered", "rendered_html"])
    );
    // The values' doc comments follow the field's, one line each (a plain `enum` stays: a
    // `oneOf` of `const`s is outside the subset some clients accept).
    assert_eq!(
        properties["mode"]["description"],
        "How to show the page.\n- source: The stored source.\n- rendered: The rendered text.\n\
         - rendered_html: A two-word variant, to see the snake_case wire value."
    );
    assert_eq!(
        properties["size"],
        json!({"type": "integer", "description": "An optional size in bytes.", "minimum": 0})
    );
    assert_eq!(
        properties["ratio"],
        json!({"type": "number", "description": "A share between 0 and 1.", "minimum": 0.0,
               "maximum": 1.0, "default": 0.5})
    );
    // A flattened group's fields are top-level parameters with their own docs and keys.
    assert_eq!(
        properties["count"],
        json!({"type": "integer", "description": "Items per page (1 to 50).", "minimum": 1,
               "maximum": 50, "default": 10})
    );
    assert_eq!(properties["filter"]["description"], "One filter.");
    assert_eq!(properties["filter"]["required"], json!(["field"]));
    assert_eq!(
        properties["filters"]["items"]["properties"]["field"]["type"],
        "string"
    );
    assert_eq!(properties["extra"]["type"], "object");
}

#[test]
fn extended_parameters_are_advertised_only_in_the_extended_variant() {
    let standard = schema("every_kind", Standard);
    let extended = schema("every_kind", Extended);
    assert!(!property_names(&standard).contains(&"source"));
    assert_eq!(
        extended["properties"]["source"],
        json!({"type": "string", "description": "Optional source to read from instead of the default one."})
    );
    let mut without_source = extended.clone();
    if let Some(properties) = without_source["properties"].as_object_mut() {
        properties.remove("source");
    }
    assert_eq!(standard, without_source);
}

#[test]
fn renames_apply_to_the_wire_names() {
    let schema = schema("renamed", Standard);
    assert_eq!(
        property_names(&schema),
        ["documentReference", "showHidden", "fieldValues"]
    );
    assert_eq!(
        schema["required"],
        json!(["documentReference", "fieldValues"])
    );
}

#[test]
fn a_tool_without_parameters_has_an_empty_closed_schema() {
    assert_eq!(
        schema("no_params", Extended),
        json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})
    );
}

#[test]
fn annotations_follow_write() {
    let read = tool("every_kind")
        .definition(Standard)
        .map(|d| d.annotations);
    assert_eq!(
        read,
        Ok(ToolAnnotations {
            read_only_hint: true,
            destructive_hint: false,
            idempotent_hint: true,
            open_world_hint: false,
        })
    );
    let write = tool("renamed")
        .definition(Standard)
        .map(|d| (d.annotations, d.title));
    assert_eq!(
        write,
        Ok((
            ToolAnnotations {
                read_only_hint: false,
                destructive_hint: true,
                idempotent_hint: false,
                open_world_hint: false,
            },
            Some("Renamed parameters")
        ))
    );
}

#[test]
fn declared_hints_reach_the_definition() {
    let tag = tool("tag").definition(Standard).map(|d| d.annotations);
    assert_eq!(
        tag,
        Ok(ToolAnnotations {
            read_only_hint: false,
            destructive_hint: false,
            idempotent_hint: true,
            open_world_hint: false,
        })
    );
}

#[test]
fn the_description_is_the_doc_comment_and_the_summary_its_first_sentence() {
    let declaration = tool("every_kind").declaration();
    assert_eq!(
        declaration.summary,
        "Exercise every supported parameter type."
    );
    assert!(
        declaration
            .description
            .starts_with("Exercise every supported parameter type.")
    );
    assert!(
        declaration
            .description
            .contains("Its output lists every parsed value")
    );
    let definition = tool("every_kind")
        .definition(Extended)
        .map(|d| d.description);
    assert_eq!(definition, Ok(declaration.description));
}
