//! Field rules end to end: write_schema sets a default and a validation pattern, get_schema
//! prints them as the reference's `default=` and `[validation: ...]` modifiers (and in its
//! structured output), write_object applies the default to new objects and refuses a value that
//! breaks the pattern, naming the field, the pattern and the class author's message.

use serde_json::{Value, json};
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::object::FieldValue;

use crate::harness::{Farm, ok};
use crate::write_attachment::version;
use crate::write_object::objects;

const CLASS: &str = "Tickets.TicketClass";

/// The seeded farm with exactly `tools` enabled on `main`.
pub(crate) fn farm_with(tools: &[&str]) -> Farm {
    let farm = Farm::new();
    farm.configure("main", |config| {
        config.enabled_tools = tools.iter().map(|id| (*id).to_owned()).collect();
    });
    farm
}

fn farm() -> Farm {
    farm_with(&["get_schema", "write_object", "write_schema"])
}

/// `tool` called by alice on `main`.
pub(crate) async fn call(farm: &Farm, tool: &str, arguments: Value) -> Result<String, String> {
    farm.call(tool, arguments, "alice", "main").await
}

/// `code` (a ticket id pattern with a message) and `state` (a list defaulting to `open`).
async fn ticket_class(farm: &Farm) {
    ok(call(
        farm,
        "write_schema",
        json!({"reference": CLASS, "operation": "add_field", "field": "code", "type": "String",
               "attributes": {"validation_regexp": "^[A-Z]{3}-[0-9]+$",
                              "validation_message": "Use a ticket id such as ABC-12"}}),
    )
    .await);
    let base = version(farm, CLASS).map(|v| v.to_string());
    ok(call(
        farm,
        "write_schema",
        json!({"reference": CLASS, "operation": "add_field", "field": "state",
               "type": "StaticList", "base_version": base,
               "attributes": {"values": "open|closed", "default": "open"}}),
    )
    .await);
}

#[backend_test]
async fn get_schema_prints_defaults_and_validation_after_the_label() {
    let farm = farm();
    ticket_class(&farm).await;
    let text = ok(call(&farm, "get_schema", json!({"class": CLASS})).await);
    assert_eq!(
        text,
        "CLASS Tickets.TicketClass in wiki \"main\":\n  code: String [validation: \
         ^[A-Z]{3}-[0-9]+$ \"Use a ticket id such as ABC-12\"]\n  state: StaticList(open|closed) \
         default=open\nDISABLED FIELDS: none"
    );
    let result = farm
        .call_result("get_schema", json!({"class": CLASS}), "alice", "main")
        .await;
    let structured = result.structured_content.unwrap_or_default();
    let fields = &structured["class"]["fields"];
    assert_eq!(fields[0]["validation_regexp"], "^[A-Z]{3}-[0-9]+$");
    assert_eq!(
        fields[0]["validation_message"],
        "Use a ticket id such as ABC-12"
    );
    assert_eq!(fields[0]["default"], Value::Null);
    assert_eq!(fields[1]["default"], "open");
}

#[backend_test]
async fn write_object_applies_defaults_and_refuses_values_that_break_the_pattern() {
    let farm = farm();
    ticket_class(&farm).await;
    let refused = call(
        &farm,
        "write_object",
        json!({"reference": "Tickets.T1", "class": CLASS, "fields": {"code": "abc-12"}}),
    )
    .await;
    assert_eq!(
        refused,
        Err(
            "Error: the value of \"code\" does not match the field's validation pattern \
             /^[A-Z]{3}-[0-9]+$/ (Use a ticket id such as ABC-12). Give a value that matches it \
             (get_schema shows each field's rules). Nothing was saved."
                .to_owned()
        )
    );
    assert_eq!(version(&farm, "Tickets.T1"), None, "nothing was created");

    let created = ok(call(
        &farm,
        "write_object",
        json!({"reference": "Tickets.T1", "class": CLASS, "fields": {"code": "ABC-12"}}),
    )
    .await);
    assert!(
        created.contains("\nFields set: code\nDefaults taken: state"),
        "{created}"
    );
    let stored = objects(&farm, "Tickets.T1");
    assert_eq!(
        stored[0].values.get("state"),
        Some(&FieldValue::List(vec!["open".to_owned()]))
    );

    // An update names only what it sets and takes no default.
    let base = version(&farm, "Tickets.T1").map(|v| v.to_string());
    let updated = ok(call(
        &farm,
        "write_object",
        json!({"reference": "Tickets.T1", "class": CLASS, "object": 0,
               "fields": {"state": "closed"}, "base_version": base}),
    )
    .await);
    assert!(!updated.contains("Defaults taken"), "{updated}");
}

#[backend_test]
async fn write_schema_refuses_rules_that_cannot_hold_and_saves_nothing() {
    let farm = farm();
    ticket_class(&farm).await;
    let before = version(&farm, CLASS).map(|v| v.to_string());
    let attempt = |field: &'static str, attributes: Value| {
        let farm = &farm;
        let base = before.clone();
        async move {
            call(
                farm,
                "write_schema",
                json!({"reference": CLASS, "operation": "modify_field", "field": field,
                       "attributes": attributes, "base_version": base}),
            )
            .await
        }
    };
    let cases = [
        (
            attempt("state", json!({"default": "maybe"})).await,
            "Error: the attribute default expects one of: open, closed: a value the field \
             itself accepts. Nothing was saved.",
        ),
        (
            attempt("state", json!({"validation_regexp": "^c"})).await,
            "Error: the default does not match the field's validation_regexp /^c/; change one \
             so that the default matches. Nothing was saved.",
        ),
        (
            attempt("code", json!({"validation_regexp": "(?=x)"})).await,
            "Error: the attribute validation_regexp expects a valid regular expression (Rust \
             regex syntax: no look-around or back-references), small enough to compile. \
             Nothing was saved.",
        ),
        (
            attempt("state", json!({"validation_message": "why"})).await,
            "Error: the attribute validation_message expects a validation_regexp to go with \
             it (the message explains the pattern). Nothing was saved.",
        ),
    ];
    for (got, expected) in cases {
        assert_eq!(got, Err(expected.to_owned()));
    }
    let secret = call(
        &farm,
        "write_schema",
        json!({"reference": CLASS, "operation": "add_field", "field": "pin",
               "type": "Password", "attributes": {"default": "1234"}, "base_version": before}),
    )
    .await;
    assert_eq!(
        secret,
        Err(
            "Error: Password fields do not take the attribute \"default\". Accepted \
             attributes: validation_regexp, validation_message. Nothing was saved."
                .to_owned()
        )
    );
    assert_eq!(version(&farm, CLASS).map(|v| v.to_string()), before);
}
