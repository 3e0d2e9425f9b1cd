//! `write_object` through the real middleware: creation (of the object and of the document),
//! updates, base_version rules, field and class refusals, and who may write. Every refusal is
//! checked against the store: nothing was written.

use serde_json::{Value, json};
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::class::FieldType;
use wiki_tool_sdk::store::model::document::Expected;
use wiki_tool_sdk::store::model::object::{ClassChange, FieldChange, FieldValue, ObjectRecord};

use crate::harness::unchanged::Says::{Contains, EndsWith, Exactly, StartsWith};
use crate::harness::{Farm, TASK_CLASS, ok, reference};
use crate::write_attachment::version;

const TOOLS: [&str; 3] = ["write_object", "delete_object", "write_schema"];

/// The seeded farm with the object and schema write tools enabled on `main`.
pub(crate) fn farm() -> Farm {
    let farm = Farm::new();
    farm.configure("main", |config| {
        config.enabled_tools = TOOLS.iter().map(|id| (*id).to_owned()).collect();
    });
    farm
}

/// The objects on a document.
pub(crate) fn objects(farm: &Farm, text: &str) -> Vec<ObjectRecord> {
    ok(farm.store.objects(&reference(text)))
}

const TOOL: &str = "write_object";

async fn write(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call(TOOL, arguments, user, "main").await
}

fn text(value: &str) -> FieldValue {
    FieldValue::Text(value.to_owned())
}

#[backend_test]
async fn a_new_object_is_added_to_an_existing_document() {
    let farm = farm();
    let before = version(&farm, "Tasks.Task1").unwrap_or_else(|| panic!("seeded"));
    let result = ok(write(
        &farm,
        json!({"reference": "Tasks.Task1", "class": TASK_CLASS,
               "fields": {"title": "Second", "priority": "7"},
               "base_version": before.to_string()}),
        "alice",
    )
    .await);
    let after = before.next(false);
    assert_eq!(
        result,
        format!(
            "Created Tasks.TaskClass object 1 on document main:Tasks.Task1.\nVersion: {before} \
             -> {after}\nFields set: priority, title"
        )
    );
    let objects = objects(&farm, "Tasks.Task1");
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[1].number, 1);
    assert_eq!(objects[1].values.get("title"), Some(&text("Second")));
    assert_eq!(
        objects[1].values.get("priority"),
        Some(&FieldValue::Integer(7))
    );
}

#[backend_test]
async fn an_object_is_updated_in_place_and_a_document_created_with_one() {
    let farm = farm();
    let before = version(&farm, "Tasks.Task1").unwrap_or_else(|| panic!("seeded"));
    let updated = ok(write(
        &farm,
        json!({"reference": "Tasks.Task1", "class": TASK_CLASS, "object": 0,
               "fields": {"priority": "9"}, "title": "Task one", "major": true,
               "base_version": before.to_string()}),
        "alice",
    )
    .await);
    assert_eq!(
        updated,
        format!(
            "Updated Tasks.TaskClass object 0 on document main:Tasks.Task1.\nVersion: {before} \
             -> {}\nTitle updated.\nFields set: priority",
            before.next(true)
        )
    );
    let object = &objects(&farm, "Tasks.Task1")[0];
    assert_eq!(object.values.get("priority"), Some(&FieldValue::Integer(9)));
    assert_eq!(object.values.get("title"), Some(&text("Write docs")));

    let created = ok(write(
        &farm,
        json!({"reference": "Tasks.Task9", "class": "main:Tasks.TaskClass",
               "fields": {"title": "Nine"}, "title": "Task nine"}),
        "alice",
    )
    .await);
    assert_eq!(
        created,
        "Created document main:Tasks.Task9 with Tasks.TaskClass object 0.\nVersion: 1.1\nTitle \
         set.\nFields set: title"
    );
    assert_eq!(objects(&farm, "Tasks.Task9").len(), 1);
}

#[backend_test]
async fn a_stale_or_missing_base_version_saves_nothing() {
    let farm = farm();
    farm.save("Tasks.Task1", "edited by someone else\n", "edit");
    let now = version(&farm, "Tasks.Task1").unwrap_or_else(|| panic!("seeded"));
    let conflict = format!(
        "Version conflict: the document is now at version {now} but base_version is 1.1. \
         Re-read it with get_document and resend the fields with the document's version as \
         base_version. get_history from=1.1 shows what changed since. Nothing was saved."
    );
    for (arguments, expected) in [
        (
            json!({"reference": "Tasks.Task1", "class": TASK_CLASS, "object": 0,
                   "fields": {"priority": "9"}, "base_version": "1.1"}),
            Exactly(&conflict),
        ),
        (
            json!({"reference": "Tasks.Task1", "class": TASK_CLASS, "fields": {"title": "x"}}),
            Contains("'base_version' is required"),
        ),
        (
            json!({"reference": "Tasks.Nope", "class": TASK_CLASS, "fields": {"title": "x"},
                   "base_version": "1.1"}),
            Contains("does not exist; omit base_version"),
        ),
    ] {
        farm.refuses(TOOL, "alice", arguments, &[expected]).await;
    }
}

#[backend_test]
async fn field_object_and_class_refusals_write_nothing() {
    let farm = farm();
    let now = version(&farm, "Tasks.Task1").unwrap_or_else(|| panic!("seeded"));
    let base = now.to_string();
    let cases = [
        (
            json!({"class": TASK_CLASS, "fields": {"colour": "red"}}),
            "Error: the class Tasks.TaskClass has no field \"colour\". Its fields: title, \
             priority. Nothing was saved.",
        ),
        (
            json!({"class": TASK_CLASS, "fields": {"secret": "x"}}),
            "Error: \"secret\" is a Password field; write tools never set passwords. Settable \
             fields: title, priority. Nothing was saved.",
        ),
        (
            json!({"class": TASK_CLASS, "object": 5, "fields": {"title": "x"}}),
            "Error: the document \"main:Tasks.Task1\" has no Tasks.TaskClass object 5 \
             (existing numbers: 0). Omit 'object' to create one. Nothing was saved.",
        ),
        (
            json!({"class": TASK_CLASS, "fields": {"priority": "high"}}),
            "Error: the field \"priority\" expects",
        ),
        (
            json!({"class": "sub:Tasks.TaskClass", "fields": {"title": "x"}}),
            "Error: the class \"sub:Tasks.TaskClass\" is in wiki \"sub\", but the document is \
             in wiki \"main\"",
        ),
        (
            json!({"class": "XWiki.XWikiRights", "fields": {"allow": "1"}}),
            "Error: the class \"XWiki.XWikiRights\" controls rights, users or this server's \
             configuration; write tools never change it. Nothing was saved.",
        ),
        (
            json!({"class": "MCP.ServerConfigClass", "fields": {"enabled": "0"}}),
            "Error: the class \"MCP.ServerConfigClass\" controls rights",
        ),
        (
            json!({"class": "Tasks.Task2", "fields": {"title": "x"}}),
            "Error: \"Tasks.Task2\" defines no class",
        ),
        (
            json!({"class": TASK_CLASS, "fields": {}}),
            "Error: 'fields' needs at least one field",
        ),
    ];
    for (mut arguments, expected) in cases {
        arguments["reference"] = json!("Tasks.Task1");
        arguments["base_version"] = json!(base);
        let says = [StartsWith(expected), EndsWith("Nothing was saved.")];
        farm.refuses(TOOL, "alice", arguments, &says).await;
    }
    // The configuration document is never written.
    let config =
        json!({"reference": "MCP.ServerConfig", "class": TASK_CLASS, "fields": {"title": "x"}});
    farm.refuses(
        TOOL,
        "admin",
        config.clone(),
        &[Contains("MCP configuration")],
    )
    .await;
    let hidden = Exactly("You do not have permission to view \"main:MCP.ServerConfig\".");
    farm.refuses(TOOL, "alice", config, &[hidden]).await;
}

#[backend_test]
async fn the_guest_and_a_user_without_edit_right_are_refused() {
    let farm = farm();
    let arguments = json!({"reference": "Tasks.Task7", "class": TASK_CLASS,
                           "fields": {"title": "x"}});
    farm.refuses_the_guest_and_a_reader(TOOL, arguments).await;
}

#[backend_test]
async fn a_class_the_caller_cannot_view_reads_as_no_class() {
    let farm = farm();
    ok(farm.store.change_class(&ClassChange {
        class_document: reference("Secret.PlanClass"),
        change: FieldChange::Add {
            rules: Default::default(),
            name: "goal".to_owned(),
            field_type: FieldType::String,
            pretty_name: None,
        },
        author: "admin".to_owned(),
        comment: "schema".to_owned(),
        major: false,
        expected: Expected::Any,
    }));
    let unknown = json!({"reference": "Sandbox.Plan", "class": "Secret.PlanClass",
                         "fields": {"nope": "x"}});
    let no_class = Exactly(
        "Error: \"Secret.PlanClass\" defines no class (its document has no fields). get_schema \
         lists the classes in use; write_schema creates one. Nothing was saved.",
    );
    farm.refuses(TOOL, "alice", unknown, &[no_class]).await;
}

#[backend_test]
async fn values_already_stored_save_nothing() {
    let farm = farm();
    let now = version(&farm, "Tasks.Task1").unwrap_or_else(|| panic!("seeded"));
    let same = ok(write(
        &farm,
        json!({"reference": "Tasks.Task1", "class": TASK_CLASS, "object": 0,
               "fields": {"title": "Write docs", "priority": " 1 "},
               "base_version": now.to_string()}),
        "alice",
    )
    .await);
    assert_eq!(
        same,
        format!(
            "No changes: Tasks.TaskClass object 0 already holds the given values and title. \
             Nothing was saved; the document \"main:Tasks.Task1\" stays at version {now}."
        )
    );
    assert_eq!(
        version(&farm, "Tasks.Task1"),
        Some(now),
        "another spelling of 1"
    );
    // One changed value is saved.
    let spelled = ok(write(
        &farm,
        json!({"reference": "Tasks.Task1", "class": TASK_CLASS, "object": 0,
               "fields": {"priority": "2"}, "base_version": now.to_string()}),
        "alice",
    )
    .await);
    assert!(
        spelled.starts_with("Updated Tasks.TaskClass object 0"),
        "{spelled}"
    );
    // The values now stored, on the version before: still a conflict.
    let stale = json!({"reference": "Tasks.Task1", "class": TASK_CLASS, "object": 0,
                       "fields": {"priority": "2"}, "base_version": now.to_string()});
    let conflict = StartsWith("Version conflict: ");
    farm.refuses(TOOL, "alice", stale, &[conflict]).await;
}
