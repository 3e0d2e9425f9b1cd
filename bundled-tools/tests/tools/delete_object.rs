//! `delete_object` through the real middleware: a minor version, the other objects keep their
//! numbers, base_version always required, a missing object, sensitive classes, who may delete.

use serde_json::{Value, json};
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::document::Expected;
use wiki_tool_sdk::store::model::object::ObjectWrite;

use crate::harness::unchanged::Says::{Contains, EndsWith, Exactly};
use crate::harness::{Farm, TASK_CLASS, ok, reference};
use crate::write_attachment::version;
use crate::write_object::{farm, objects};

const TOOL: &str = "delete_object";

async fn delete(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call_confirmed(TOOL, arguments, user, "main").await
}

fn add_second_object(farm: &Farm) {
    ok(farm.store.write_object(&ObjectWrite {
        reference: reference("Tasks.Task1"),
        class: TASK_CLASS.to_owned(),
        number: None,
        values: [("title".to_owned(), "second".to_owned())].into(),
        title: None,
        author: "alice".to_owned(),
        comment: "second".to_owned(),
        major: false,
        expected: Expected::Any,
    }));
}

#[backend_test]
async fn deleting_keeps_the_other_numbers_and_saves_a_minor_version() {
    let farm = farm();
    add_second_object(&farm);
    let before = version(&farm, "Tasks.Task1").unwrap_or_else(|| panic!("seeded"));
    let text = ok(delete(
        &farm,
        json!({"reference": "Tasks.Task1", "class": TASK_CLASS, "object": 0,
               "base_version": before.to_string()}),
        "alice",
    )
    .await);
    let after = before.next(false);
    assert_eq!(
        text,
        format!(
            "Deleted Tasks.TaskClass object 0 from document main:Tasks.Task1.\nVersion: \
             {before} -> {after}"
        )
    );
    let left = objects(&farm, "Tasks.Task1");
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].number, 1);
    assert_eq!(version(&farm, "Tasks.Task1"), Some(after));
}

#[backend_test]
async fn refusals_delete_nothing() {
    let farm = farm();
    farm.save("Tasks.Task1", "edited by someone else\n", "edit");
    let now = version(&farm, "Tasks.Task1").unwrap_or_else(|| panic!("seeded"));
    // A missing base_version is the parser's refusal (no "Nothing was saved" tail).
    farm.refuses(
        TOOL,
        "alice",
        json!({"reference": "Tasks.Task1", "class": TASK_CLASS, "object": 0}),
        &[Exactly("Error: 'base_version' parameter is required.")],
    )
    .await;
    let cases = [
        (
            json!({"class": TASK_CLASS, "object": 0, "base_version": "1.1"}),
            format!(
                "Version conflict: the document is now at version {now} but base_version is \
                 1.1. Re-read it with get_document and delete again with the document's \
                 version as base_version. get_history from=1.1 shows what changed since. \
                 Nothing was saved."
            ),
        ),
        (
            json!({"class": TASK_CLASS, "object": 3, "base_version": now.to_string()}),
            "Error: the document \"main:Tasks.Task1\" has no Tasks.TaskClass object 3 \
             (existing numbers: 0)."
                .to_owned(),
        ),
        (
            json!({"class": "XWiki.XWikiGroups", "object": 0, "base_version": now.to_string()}),
            "Error: the class \"XWiki.XWikiGroups\" controls rights".to_owned(),
        ),
    ];
    for (mut arguments, expected) in cases {
        arguments["reference"] = json!("Tasks.Task1");
        let says = [Contains(&expected), EndsWith("Nothing was saved.")];
        farm.refuses(TOOL, "alice", arguments, &says).await;
    }
}

#[backend_test]
async fn the_guest_and_a_user_without_edit_right_are_refused() {
    let farm = farm();
    let now = version(&farm, "Tasks.Task1").unwrap_or_else(|| panic!("seeded"));
    let arguments = json!({"reference": "Tasks.Task1", "class": TASK_CLASS, "object": 0,
                           "base_version": now.to_string()});
    farm.refuses_the_guest_and_a_reader(TOOL, arguments).await;
}
