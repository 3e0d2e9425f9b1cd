//! Structured output, through the real call path: for every bundled tool, a generated set of
//! calls on the seeded farm (the product of each tool's argument values, as three callers:
//! alice, bob and the guest) and every result checked against the `outputSchema` the tool
//! advertises in `tools/list`, with the `jsonschema` crate (JSON Schema 2020-12), not with the
//! validator the server itself runs. A successful call of a tool with an output schema
//! carries `structuredContent` that validates; an error result carries none.

use std::collections::BTreeMap;
use wiki_server::testing::Answer;
use wiki_store::testing::backend_test;

use serde_json::{Value, json};

use wiki_tool_sdk::store::model::wiki::WikiId;
use wiki_tool_sdk::store::rights::{Effect, Right, RightRule, RightScope, Subject};

use crate::harness::{Farm, GUEST, TASK_CLASS, ok, reference};

/// Every bundled tool, enabled on `main` and `sub`.
fn farm() -> Farm {
    let farm = Farm::new();
    let ids: Vec<String> = farm
        .test_farm()
        .manager()
        .registry()
        .tools()
        .iter()
        .map(|tool| tool.id().to_owned())
        .collect();
    for wiki in ["main", "sub"] {
        farm.configure(wiki, |config| config.enabled_tools = ids.clone());
    }
    farm
}

/// Each advertised tool's compiled output schema (alice on `main` sees every tool).
async fn validators(farm: &Farm) -> BTreeMap<String, jsonschema::Validator> {
    let listed = farm
        .caller("alice", "main")
        .tools_list()
        .await
        .unwrap_or_else(|error| panic!("tools/list: {}", error.message));
    listed
        .tools
        .iter()
        .filter_map(|tool| {
            let schema = Value::Object((**tool.output_schema.as_ref()?).clone());
            let validator = jsonschema::draft202012::new(&schema).unwrap_or_else(|error| {
                panic!("{}'s outputSchema does not compile: {error}", tool.name)
            });
            Some((tool.name.to_string(), validator))
        })
        .collect()
}

/// Every combination of `axes` (a name and its values; `null` leaves the argument out), as
/// argument objects.
fn product(axes: &[(&str, Vec<Value>)]) -> Vec<Value> {
    let mut calls = vec![json!({})];
    for (name, values) in axes {
        let mut next = Vec::with_capacity(calls.len() * values.len());
        for call in &calls {
            for value in values {
                let mut call = call.clone();
                if !value.is_null() {
                    call[*name] = value.clone();
                }
                next.push(call);
            }
        }
        calls = next;
    }
    calls
}

/// The generated read calls, per tool.
fn read_calls() -> Vec<(&'static str, Vec<Value>)> {
    let pages = || {
        vec![
            json!("Sandbox.WebHome"),
            json!("Sandbox.Notes"),
            json!("Help.Guide"),
            json!("Secret.Plans"),
            json!("Tasks.Task1"),
            json!("sub:Team.WebHome"),
            json!("Nope.Missing"),
        ]
    };
    vec![
        (
            "get_tree",
            product(&[
                (
                    "root",
                    vec![
                        Value::Null,
                        json!("Sandbox"),
                        json!("Help"),
                        json!("Help.Nested"),
                        json!("Secret"),
                        json!("Sandbox.Notes"),
                        json!("Nope"),
                    ],
                ),
                ("depth", vec![json!(1), json!(4)]),
                ("limit", vec![json!(1), json!(50)]),
                ("offset", vec![json!(0), json!(1)]),
                ("showHidden", vec![json!(false), json!(true)]),
            ]),
        ),
        (
            "query_documents",
            product(&[
                (
                    "query",
                    vec![Value::Null, json!("line"), json!("guide"), json!("zzzz")],
                ),
                ("space", vec![Value::Null, json!("Help"), json!("Sandbox")]),
                ("sort", vec![Value::Null, json!("title"), json!("oldest")]),
                ("limit", vec![json!(1), json!(25)]),
                ("offset", vec![json!(0), json!(2)]),
            ]),
        ),
        (
            "get_document",
            product(&[
                ("reference", pages()),
                ("locale", vec![Value::Null, json!("fr")]),
                (
                    "mode",
                    vec![
                        Value::Null,
                        json!({"outline": true}),
                        json!({"offset": 2, "limit": 1}),
                        json!({"rendered": true}),
                        json!({"rendered": true, "format": "html"}),
                    ],
                ),
            ])
            .into_iter()
            .map(flatten_mode)
            .collect(),
        ),
        (
            "get_history",
            product(&[
                ("reference", pages()),
                (
                    "mode",
                    vec![
                        Value::Null,
                        json!({"limit": 2, "offset": 1}),
                        json!({"version": "1.1"}),
                        json!({"version": "1.2", "offset": 2}),
                        json!({"from": "1.1"}),
                        json!({"from": "1.1", "to": "1.3"}),
                        json!({"version": "9.9"}),
                    ],
                ),
            ])
            .into_iter()
            .map(flatten_mode)
            .collect(),
        ),
        (
            "get_links",
            product(&[
                ("reference", pages()),
                (
                    "direction",
                    vec![Value::Null, json!("in"), json!("out"), json!("both")],
                ),
                ("limit", vec![json!(1), json!(200)]),
                ("offset", vec![json!(0), json!(1)]),
            ]),
        ),
        (
            "get_attachment",
            product(&[
                (
                    "reference",
                    vec![json!("Sandbox.WebHome"), json!("Help.Guide")],
                ),
                (
                    "filename",
                    vec![
                        json!("notes.txt"),
                        json!("logo.png"),
                        json!("manual.pdf"),
                        json!("missing.txt"),
                    ],
                ),
                ("metadata", vec![json!(false), json!(true)]),
                ("offset", vec![json!(0), json!(5), json!(100_000)]),
            ]),
        ),
        (
            "get_schema",
            product(&[
                (
                    "class",
                    vec![Value::Null, json!(TASK_CLASS), json!("Sandbox.WebHome")],
                ),
                ("wiki", vec![Value::Null, json!("sub")]),
            ]),
        ),
        (
            "query_objects",
            product(&[
                (
                    "class",
                    vec![Value::Null, json!(TASK_CLASS), json!("Nope.Class")],
                ),
                (
                    "document",
                    vec![
                        Value::Null,
                        json!("Tasks.Task1"),
                        json!("Secret.Plans"),
                        json!("Sandbox.WebHome"),
                    ],
                ),
                ("number", vec![Value::Null, json!(0), json!(7)]),
                (
                    "filters",
                    vec![Value::Null, json!(["priority > 1"]), json!(["bogus"])],
                ),
                (
                    "select",
                    vec![Value::Null, json!(["title", "secret", "nope"])],
                ),
                ("limit", vec![json!(1), json!(25)]),
            ]),
        ),
    ]
}

/// `{"mode": {...}, ...}` with the mode's arguments merged in.
fn flatten_mode(mut call: Value) -> Value {
    if let Some(Value::Object(mode)) = call.as_object_mut().and_then(|c| c.remove("mode")) {
        for (key, value) in mode {
            call[key] = value;
        }
    }
    call
}

/// Checks one result: structured content that validates on success, none on an error.
/// Returns whether it succeeded.
fn check(
    validators: &BTreeMap<String, jsonschema::Validator>,
    tool: &str,
    arguments: &Value,
    called: &wiki_server::testing::Called,
) -> bool {
    let Ok(result) = called.outcome() else {
        return false;
    };
    let structured = called.structured();
    if result.is_error == Some(true) {
        assert!(
            structured.is_none(),
            "{tool} {arguments}: an error result carries structuredContent"
        );
        return false;
    }
    let validator = validators
        .get(tool)
        .unwrap_or_else(|| panic!("{tool} advertises no outputSchema"));
    let structured =
        structured.unwrap_or_else(|| panic!("{tool} {arguments}: no structuredContent"));
    let errors: Vec<String> = validator
        .iter_errors(structured)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{tool} {arguments}: structuredContent does not match its outputSchema:\n{}\n{structured:#}",
        errors.join("\n")
    );
    true
}

#[backend_test]
async fn every_read_result_validates_against_its_output_schema() {
    let farm = farm();
    let validators = validators(&farm).await;
    for (tool, calls) in read_calls() {
        let mut succeeded = 0usize;
        let mut failed = 0usize;
        for arguments in &calls {
            for user in ["alice", "bob", GUEST] {
                let called = farm
                    .caller(user, "main")
                    .call(tool, arguments.clone())
                    .await;
                if check(&validators, tool, arguments, &called) {
                    succeeded += 1;
                } else {
                    failed += 1;
                }
            }
        }
        // The generated set must reach both outcomes, or it proves little.
        assert!(
            succeeded > 0 && failed > 0,
            "{tool}: {succeeded} results and {failed} errors over {} calls",
            calls.len()
        );
    }
}

/// A write call's `base_version` written as `@<reference>`: that page's version when the call
/// is made (earlier writes in the sequence move it).
fn resolved(farm: &Farm, mut arguments: Value) -> Value {
    if let Some(page) = arguments["base_version"]
        .as_str()
        .and_then(|v| v.strip_prefix('@'))
    {
        let version = ok(farm.store.document(&reference(page), None))
            .map(|row| row.version.to_string())
            .unwrap_or_else(|| panic!("{page} missing"));
        arguments["base_version"] = json!(version);
    }
    arguments
}

#[backend_test]
async fn every_write_result_validates_and_carries_the_new_version() {
    let farm = farm();
    ok(farm.store.set_right(&RightRule {
        scope: RightScope::Wiki(WikiId::main()),
        subject: Subject::User("alice".to_owned()),
        right: Right::Delete,
        effect: Effect::Allow,
    }));
    let validators = validators(&farm).await;
    // Each write, and the change its structured result must report (None: refused).
    let calls = [
        (
            "write_document",
            json!({"reference": "Fresh.Page", "content": "hello\n", "title": "Fresh"}),
            Some("created"),
        ),
        (
            "write_document",
            json!({"reference": "Fresh.Page", "content": "hello\n", "base_version": "@Fresh.Page"}),
            Some("unchanged"),
        ),
        (
            "write_document",
            json!({"reference": "Sandbox.Notes", "content": "new\n", "base_version": "@Sandbox.Notes"}),
            Some("updated"),
        ),
        (
            "write_document",
            json!({"reference": "Sandbox.Notes", "content": "stale\n", "base_version": "1.1"}),
            None,
        ),
        (
            "edit_document",
            json!({"reference": "Fresh.Page", "edits": [{"old_string": "hello", "new_string": "hi"}], "base_version": "@Fresh.Page"}),
            Some("updated"),
        ),
        (
            "edit_document",
            json!({"reference": "Fresh.Page", "edits": [{"old_string": "absent", "new_string": "x"}], "base_version": "@Fresh.Page"}),
            None,
        ),
        (
            "write_attachment",
            json!({"reference": "Sandbox.WebHome", "filename": "new.txt", "content": "text\n", "base_version": "@Sandbox.WebHome"}),
            Some("updated"),
        ),
        (
            "write_object",
            json!({"reference": "Tasks.Task1", "class": TASK_CLASS, "fields": {"title": "Docs"}, "base_version": "@Tasks.Task1"}),
            Some("updated"),
        ),
        (
            "write_schema",
            json!({"reference": TASK_CLASS, "operation": "add_field", "field": "owner", "type": "String", "base_version": format!("@{TASK_CLASS}")}),
            Some("updated"),
        ),
        (
            "delete_object",
            json!({"reference": "Tasks.Task2", "class": TASK_CLASS, "object": 0, "base_version": "@Tasks.Task2"}),
            Some("updated"),
        ),
        (
            "delete_attachment",
            json!({"reference": "Sandbox.WebHome", "filename": "notes.txt", "base_version": "@Sandbox.WebHome"}),
            Some("updated"),
        ),
        (
            "delete_document",
            json!({"reference": "Help.Nested.Deep", "base_version": "@Help.Nested.Deep"}),
            Some("deleted"),
        ),
    ];
    for (tool, arguments, expected) in calls {
        let arguments = resolved(&farm, arguments);
        // The person accepts: the deletes are declared `confirm`.
        let called = farm
            .caller("alice", "main")
            .answering(Answer::Accepted)
            .call(tool, arguments.clone())
            .await;
        let succeeded = check(&validators, tool, &arguments, &called);
        let value = called.structured().cloned().unwrap_or_default();
        assert_eq!(
            value["change"].as_str(),
            expected,
            "{tool} {arguments}: {value} / {:?}",
            called.text()
        );
        if succeeded {
            let version = value["version"].as_str().unwrap_or_default();
            assert!(
                value["reference"]
                    .as_str()
                    .is_some_and(|r| r.starts_with("main:"))
                    && version.contains('.'),
                "{tool}: {value}"
            );
            let text = called.text().unwrap_or_default();
            assert!(
                text.contains(version),
                "{tool}: the text names the version the structured result gives:\n{text}"
            );
        }
    }
}
