//! `write_schema` through the real middleware: the first field creates the class, add, modify,
//! remove (values hidden, and back when the field returns), base_version rules, argument and
//! attribute refusals, sensitive classes, and who may write. Refusals are checked in the store.

use serde_json::{Value, json};
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::class::{ClassDefinition, FieldType, NumberKind};
use wiki_tool_sdk::store::model::object::FieldValue;

use crate::harness::unchanged::Says::{Contains, EndsWith, Exactly};
use crate::harness::{Farm, TASK_CLASS, ok, reference};
use crate::write_attachment::version;
use crate::write_object::{farm, objects};

const TOOL: &str = "write_schema";

async fn schema(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call(TOOL, arguments, user, "main").await
}

fn class(farm: &Farm, text: &str) -> Option<ClassDefinition> {
    ok(farm.store.class(&reference(text)))
}

fn base(farm: &Farm, text: &str) -> String {
    version(farm, text)
        .unwrap_or_else(|| panic!("{text} exists"))
        .to_string()
}

#[backend_test]
async fn the_first_field_creates_the_class() {
    let farm = farm();
    let text = ok(schema(
        &farm,
        json!({"reference": "Shop.ItemClass", "operation": "add_field", "field": "price",
               "type": "number", "attributes": {"number_type": "float"},
               "pretty_name": "Price"}),
        "alice",
    )
    .await);
    assert_eq!(
        text,
        "Created class Shop.ItemClass with field price (Number).\nVersion: 1.1"
    );
    let class = class(&farm, "Shop.ItemClass").unwrap_or_else(|| panic!("created"));
    assert_eq!(class.fields.len(), 1);
    assert_eq!(
        class.fields[0].field_type,
        FieldType::Number(NumberKind::Float)
    );
    assert_eq!(class.fields[0].pretty_name.as_deref(), Some("Price"));
}

#[backend_test]
async fn fields_are_added_and_modified_on_an_existing_class() {
    let farm = farm();
    let before = version(&farm, TASK_CLASS).unwrap_or_else(|| panic!("seeded"));
    let added = ok(schema(
        &farm,
        json!({"reference": TASK_CLASS, "operation": "add_field", "field": "state",
               "type": "StaticList", "attributes": {"values": "open|done"},
               "base_version": before.to_string()}),
        "alice",
    )
    .await);
    let after = before.next(false);
    assert_eq!(
        added,
        format!(
            "Added field state (StaticList) to class Tasks.TaskClass.\nVersion: {before} -> {after}"
        )
    );
    let modified = ok(schema(
        &farm,
        json!({"reference": TASK_CLASS, "operation": "modify_field", "field": "state",
               "attributes": {"values": "open|done|wontfix", "multiselect": "true"},
               "pretty_name": "State", "base_version": after.to_string()}),
        "alice",
    )
    .await);
    assert!(
        modified.starts_with("Modified field state of class Tasks.TaskClass.\nVersion: "),
        "{modified}"
    );
    let class = class(&farm, TASK_CLASS).unwrap_or_else(|| panic!("seeded"));
    let state = class.field("state").unwrap_or_else(|| panic!("added"));
    assert_eq!(
        state.field_type,
        FieldType::StaticList {
            values: vec!["open".to_owned(), "done".to_owned(), "wontfix".to_owned()],
            multiselect: true
        }
    );
    assert_eq!(state.pretty_name.as_deref(), Some("State"));
}

#[backend_test]
async fn a_modification_to_what_the_field_already_is_saves_nothing() {
    let farm = farm();
    let now = base(&farm, TASK_CLASS);
    let same = ok(schema(
        &farm,
        json!({"reference": TASK_CLASS, "operation": "modify_field", "field": "priority",
               "attributes": {"number_type": "integer"}, "pretty_name": "",
               "base_version": now}),
        "alice",
    )
    .await);
    assert_eq!(
        same,
        format!(
            "No changes: field priority of class Tasks.TaskClass already has these attributes \
             and label. Nothing was saved; the document \"main:Tasks.TaskClass\" stays at \
             version {now}."
        )
    );
    assert_eq!(base(&farm, TASK_CLASS), now);
    let relabelled = ok(schema(
        &farm,
        json!({"reference": TASK_CLASS, "operation": "modify_field", "field": "priority",
               "pretty_name": "Priority", "base_version": now}),
        "alice",
    )
    .await);
    assert!(
        relabelled.starts_with("Modified field priority of class Tasks.TaskClass."),
        "{relabelled}"
    );
}

#[backend_test]
async fn removing_a_field_hides_its_values_reversibly() {
    let farm = farm();
    let missing =
        json!({"reference": TASK_CLASS, "operation": "remove_field", "field": "priority"});
    let required = Contains("'base_version' is required");
    farm.refuses(TOOL, "alice", missing, &[required]).await;
    let removed = ok(schema(
        &farm,
        json!({"reference": TASK_CLASS, "operation": "remove_field", "field": "priority",
               "base_version": base(&farm, TASK_CLASS)}),
        "alice",
    )
    .await);
    assert!(
        removed.starts_with(
            "Removed field priority from class Tasks.TaskClass. Its values stay stored on \
             every object, hidden: add a field named priority again to show them again.\n"
        ),
        "{removed}"
    );
    assert_eq!(
        objects(&farm, "Tasks.Task1")[0].values.get("priority"),
        None
    );
    ok(schema(
        &farm,
        json!({"reference": TASK_CLASS, "operation": "add_field", "field": "priority",
               "type": "Number", "base_version": base(&farm, TASK_CLASS)}),
        "alice",
    )
    .await);
    assert_eq!(
        objects(&farm, "Tasks.Task1")[0].values.get("priority"),
        Some(&FieldValue::Integer(1))
    );
}

#[backend_test]
async fn refusals_change_nothing() {
    let farm = farm();
    farm.save(TASK_CLASS, "class page\n", "edit");
    let now = base(&farm, TASK_CLASS);
    let cases = [
        (
            json!({"operation": "add_field", "field": "size", "type": "Number",
                   "attributes": {"size": "3"}}),
            "Error: Number fields do not take the attribute \"size\". Accepted attributes: \
             number_type, default, validation_regexp, validation_message. Nothing was saved."
                .to_owned(),
        ),
        (
            json!({"operation": "add_field", "field": "flag", "type": "Boolean",
                   "attributes": {"values": "a"}}),
            "Accepted attributes: default, validation_regexp, validation_message.".to_owned(),
        ),
        (
            json!({"operation": "add_field", "field": "x", "type": "Color"}),
            "Error: the field type must be one of: String, TextArea".to_owned(),
        ),
        (
            json!({"operation": "add_field", "field": "x"}),
            "Error: add_field needs 'type'".to_owned(),
        ),
        (
            json!({"operation": "add_field", "field": "title", "type": "String"}),
            "Error: the class already has a field \"title\"; use modify_field".to_owned(),
        ),
        (
            json!({"operation": "add_field", "field": "9lives", "type": "String"}),
            "Error: invalid 'field'".to_owned(),
        ),
        (
            json!({"operation": "modify_field", "field": "title", "type": "TextArea"}),
            "never changes a field's type".to_owned(),
        ),
        (
            json!({"operation": "modify_field", "field": "nope", "pretty_name": "N"}),
            "Error: the class Tasks.TaskClass has no field \"nope\". Its fields: title, \
             priority, secret."
                .to_owned(),
        ),
        (
            json!({"operation": "remove_field", "field": "title", "attributes": {"a": "b"}}),
            "remove_field takes only 'field'".to_owned(),
        ),
        (
            json!({"operation": "remove_field", "field": "title", "base_version": "1.1"}),
            format!(
                "Version conflict: the document is now at version {now} but base_version is \
                 1.1. Re-read it with get_document and redo the schema change with the class \
                 document's version as base_version. get_history from=1.1 shows what changed \
                 since. Nothing was saved."
            ),
        ),
    ];
    for (mut arguments, expected) in cases {
        arguments["reference"] = json!(TASK_CLASS);
        if arguments.get("base_version").is_none() {
            arguments["base_version"] = json!(now);
        }
        let says = [Contains(&expected), EndsWith("Nothing was saved.")];
        farm.refuses(TOOL, "alice", arguments, &says).await;
    }
}

#[backend_test]
async fn sensitive_classes_and_callers_without_edit_right_are_refused() {
    let farm = farm();
    for sensitive in [
        "XWiki.XWikiUsers",
        "XWiki.XWikiGlobalRights",
        "MCP.ServerConfigClass",
    ] {
        let arguments = json!({"reference": sensitive, "operation": "add_field", "field": "x",
                               "type": "String"});
        // Only an administrator may view the configuration class at all.
        let user = if sensitive.starts_with("MCP.") {
            "admin"
        } else {
            "alice"
        };
        farm.refuses(TOOL, user, arguments, &[EndsWith("Nothing was saved.")])
            .await;
    }
    let arguments = json!({"reference": "Shop.ItemClass", "operation": "add_field",
                           "field": "x", "type": "String"});
    farm.refuses_the_guest_and_a_reader(TOOL, arguments).await;
}

#[backend_test]
async fn a_base_version_for_a_new_class_document_is_refused() {
    let farm = farm();
    let based = json!({"reference": "Shop.ItemClass", "operation": "add_field", "field": "x",
                       "type": "String", "base_version": "1.1"});
    let missing = Exactly(
        "Error: the document \"main:Shop.ItemClass\" does not exist; omit base_version to \
         create it. Nothing was saved.",
    );
    farm.refuses(TOOL, "alice", based, &[missing]).await;
}

#[backend_test]
async fn a_page_without_a_class_says_so() {
    let farm = farm();
    let version = base(&farm, "Sandbox.Notes");
    for operation in ["modify_field", "remove_field"] {
        let mut arguments = json!({"reference": "Sandbox.Notes", "operation": operation,
                                   "field": "title", "base_version": version});
        if operation == "modify_field" {
            arguments["pretty_name"] = json!("Title");
        }
        farm.refuses(
            TOOL,
            "alice",
            arguments,
            &[Exactly(
                "Error: the document \"Sandbox.Notes\" defines no class yet (it has no fields), \
                 so it has no field to modify or remove. add_field creates the class; get_schema \
                 lists the classes in use. Nothing was saved.",
            )],
        )
        .await;
    }
}

#[backend_test]
async fn a_bad_label_is_reported_as_the_label() {
    let farm = farm();
    let version = base(&farm, TASK_CLASS);
    farm.refuses(
        TOOL,
        "alice",
        json!({"reference": TASK_CLASS, "operation": "modify_field", "field": "title",
               "pretty_name": "two\nlines", "base_version": version}),
        &[Exactly(
            "Error: invalid 'pretty_name': at most 255 characters, without control characters. \
             Nothing was saved.",
        )],
    )
    .await;
}
