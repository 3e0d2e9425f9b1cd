//! Structured output end to end through the call path: the advertised `outputSchema` is derived
//! from the declared type, every result's `structuredContent` validates against it (a property
//! test over the tool's whole input range), errors carry none, and a result that departs from
//! its schema is never sent.

use mcp_runtime::ToolContext;
use mcp_runtime::call::{CallSettings, ToolCall, call};
use proptest::prelude::*;
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

use crate::harness::{block_on, every_tool, tool};

fn run(id: &str, arguments: Value) -> CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    block_on(call(
        every_tool(),
        ToolCall::new(id, arguments),
        ToolContext::new(Some("alice".to_owned())),
        &CallSettings::default(),
    ))
    .unwrap_or_else(|error| panic!("`{id}` is not served: {}", error.message))
}

fn output_schema(id: &str) -> Value {
    let definition = tool(id)
        .definition(mcp_runtime::SchemaVariant::Standard)
        .unwrap_or_else(|error| panic!("{error}"));
    match &definition.output_schema {
        Some(schema) => Value::Object((**schema).clone()),
        None => panic!("`{id}` advertises no output schema"),
    }
}

#[test]
fn the_output_schema_is_derived_from_the_declared_type_and_flat() {
    let schema = output_schema("listing");
    assert_eq!(schema["type"], "object");
    let entry = &schema["properties"]["entries"]["items"];
    assert_eq!(entry["type"], "object");
    assert_eq!(
        entry["properties"]["size"],
        json!({"type": "integer"}),
        "an Option is its plain type: a None is left out of the result, never null"
    );
    assert_eq!(
        schema["properties"]["totalCount"],
        json!({"type": "integer"}),
        "no description (the tool's description explains results), no minimum 0"
    );
    let text = schema.to_string();
    assert!(!text.contains("$ref") && !text.contains("$defs"), "{text}");
    assert!(!text.contains("required"), "no required keys: {text}");
    // A text tool advertises none.
    let plain = tool("renamed")
        .definition(mcp_runtime::SchemaVariant::Standard)
        .map(|d| d.output_schema.is_none());
    assert_eq!(plain, Ok(true));
}

#[test]
fn the_listing_advertises_its_schema_and_a_result_carries_text_and_structure() {
    let listed = every_tool().list_result().tools;
    let advertised = listed.iter().find(|t| t.name == "listing");
    let advertised = advertised.and_then(|t| t.output_schema.as_ref());
    assert_eq!(
        advertised.map(|schema| Value::Object((**schema).clone())),
        Some(output_schema("listing"))
    );

    let result = run("listing", json!({"count": 3}));
    assert_eq!(result.is_error, Some(false));
    let text = result.content.first().and_then(|block| block.as_text());
    assert_eq!(
        text.map(|text| text.text.as_str()),
        Some("entry-0\nentry-1\nentry-2"),
        "the text content stays what models read"
    );
    assert_eq!(
        result.structured_content,
        Some(json!({
            "entries": [{"name": "entry-0"}, {"name": "entry-1", "size": 1}, {"name": "entry-2"}],
            "totalCount": 3
        }))
    );
}

#[test]
fn an_error_result_never_carries_structured_content() {
    let result = run("listing", json!({"count": 0}));
    assert_eq!(result.is_error, Some(true));
    assert_eq!(result.structured_content, None);
    let bad = run("listing", json!({"count": "many"}));
    assert_eq!((bad.is_error, bad.structured_content), (Some(true), None));
}

#[test]
fn a_result_that_breaks_its_schema_is_refused_not_sent() {
    let result = run("lying", json!({}));
    assert_eq!(result.is_error, Some(true));
    assert_eq!(result.structured_content, None);
    let text = result.content.first().and_then(|block| block.as_text());
    let text = text.map(|text| text.text.clone()).unwrap_or_default();
    assert!(
        text.contains("did not match its declared output") && !text.contains("many"),
        "{text}"
    );
}

proptest! {
    #[test]
    fn every_result_validates_against_the_advertised_schema(count in 0i64..=50) {
        let validator = jsonschema::draft202012::new(&output_schema("listing"))
            .unwrap_or_else(|error| panic!("{error}"));
        let result = run("listing", json!({"count": count}));
        match result.structured_content {
            Some(value) => {
                prop_assert_eq!(result.is_error, Some(false));
                let errors: Vec<String> =
                    validator.iter_errors(&value).map(|e| e.to_string()).collect();
                prop_assert!(errors.is_empty(), "{:?} for {}", errors, value);
            }
            None => prop_assert_eq!(result.is_error, Some(true)),
        }
    }
}
