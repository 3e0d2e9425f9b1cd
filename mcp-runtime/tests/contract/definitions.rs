//! The served definitions: schema shape, declaration order, reach variants, annotations.

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
    let schema = schema("every_kind", true);
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
            "hidden",
            "minor",
            "spaces",
            "fields",
            "mode",
            "diff_mode",
            "filter",
            "filters",
            "extra",
            "wiki"
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
    let schema = schema("every_kind", true);
    let properties = &schema["properties"];
    assert_eq!(
        properties["reference"],
        json!({"type": "string", "description": "A required, trimmed, non-blank string.",
               "minLength": 1, "pattern": "\\S"})
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
    assert_eq!(properties["filter"]["description"], "One filter.");
    assert_eq!(properties["filter"]["required"], json!(["field"]));
    assert_eq!(
        properties["filters"]["items"]["properties"]["field"]["type"],
        "string"
    );
    assert_eq!(properties["extra"]["type"], "object");
}

#[test]
fn cross_wiki_parameters_are_advertised_only_with_reach() {
    let local = schema("every_kind", false);
    let reach = schema("every_kind", true);
    assert!(!property_names(&local).contains(&"wiki"));
    assert_eq!(
        reach["properties"]["wiki"],
        json!({"type": "string", "description": "Optional wiki id to read from instead of the current wiki."})
    );
    let mut without_wiki = reach.clone();
    if let Some(properties) = without_wiki["properties"].as_object_mut() {
        properties.remove("wiki");
    }
    assert_eq!(local, without_wiki);
}

#[test]
fn renames_apply_to_the_wire_names() {
    let schema = schema("renamed", false);
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
        schema("no_params", true),
        json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})
    );
}

#[test]
fn annotations_follow_write() {
    let read = tool("every_kind").definition(false).map(|d| d.annotations);
    assert_eq!(
        read,
        Ok(ToolAnnotations {
            read_only_hint: true,
            destructive_hint: None,
            idempotent_hint: None,
            open_world_hint: None,
        })
    );
    let write = tool("renamed")
        .definition(false)
        .map(|d| (d.annotations, d.title));
    assert_eq!(
        write,
        Ok((
            ToolAnnotations {
                read_only_hint: false,
                destructive_hint: Some(true),
                idempotent_hint: Some(false),
                open_world_hint: None,
            },
            Some("Renamed parameters")
        ))
    );
}

#[test]
fn declared_hints_reach_the_definition() {
    let tag = tool("tag").definition(false).map(|d| d.annotations);
    assert_eq!(
        tag,
        Ok(ToolAnnotations {
            read_only_hint: false,
            destructive_hint: Some(false),
            idempotent_hint: Some(true),
            open_world_hint: Some(false),
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
    let definition = tool("every_kind").definition(true).map(|d| d.description);
    assert_eq!(definition, Ok(declaration.description));
}
