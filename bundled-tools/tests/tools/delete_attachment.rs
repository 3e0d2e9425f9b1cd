//! `delete_attachment` through the real middleware: to the recycle bin as a minor version,
//! base_version always required, conflicts, a missing attachment, and who may delete. Every
//! refusal is checked against the store: nothing was written.

use serde_json::{Value, json};
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::wiki::WikiId;

use crate::harness::unchanged::Says::{Contains, Exactly};
use crate::harness::{Farm, ok, reference};
use crate::write_attachment::{farm, version};

const TOOL: &str = "delete_attachment";

async fn delete(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call_confirmed(TOOL, arguments, user, "main").await
}

fn exists(farm: &Farm, name: &str) -> bool {
    ok(farm.store.attachment(&reference("Sandbox.WebHome"), name)).is_some()
}

#[backend_test]
async fn an_attachment_moves_to_the_recycle_bin_as_a_minor_version() {
    let farm = farm();
    let before = version(&farm, "Sandbox.WebHome").unwrap_or_else(|| panic!("seeded"));
    let text = ok(delete(
        &farm,
        json!({"reference": "Sandbox.WebHome", "filename": "notes.txt",
               "base_version": before.to_string()}),
        "alice",
    )
    .await);
    let after = before.next(false);
    let entry = ok(farm.store.trash(&WikiId::main()))[0].id;
    assert_eq!(
        text,
        format!(
            "Deleted attachment notes.txt from document main:Sandbox.WebHome (moved to the \
             recycle bin as entry {entry}: restore_document with entry={entry} brings it back).\n\
             Version: {before} -> {after}"
        )
    );
    assert!(!exists(&farm, "notes.txt"));
    assert!(exists(&farm, "logo.png"));
    assert_eq!(ok(farm.store.trash(&WikiId::main())).len(), 1);
    let row = ok(farm.store.document(&reference("Sandbox.WebHome"), None));
    let row = row.unwrap_or_else(|| panic!("the document stays"));
    assert_eq!(row.version, after);
}

#[backend_test]
async fn base_version_is_required_and_checked() {
    let farm = farm();
    let now = version(&farm, "Sandbox.WebHome").unwrap_or_else(|| panic!("seeded"));
    let arguments = json!({"reference": "Sandbox.WebHome", "filename": "notes.txt"});
    let required = Contains("Error: 'base_version' parameter is required.");
    farm.refuses(TOOL, "alice", arguments.clone(), &[required])
        .await;
    let conflict = format!(
        "Version conflict: the document is now at version {now} but base_version is 1.1. \
         Re-read it with get_document and delete again with the document's version as \
         base_version. get_history from=1.1 shows what changed since. Nothing was saved."
    );
    let mut stale = arguments;
    stale["base_version"] = json!("1.1");
    farm.refuses(TOOL, "alice", stale, &[Exactly(&conflict)])
        .await;
}

#[backend_test]
async fn a_missing_attachment_or_document_changes_nothing() {
    let farm = farm();
    let now = version(&farm, "Sandbox.WebHome").unwrap_or_else(|| panic!("seeded"));
    for (arguments, expected) in [
        (
            json!({"reference": "Sandbox.WebHome", "filename": "nope.txt",
                   "base_version": now.to_string()}),
            "Error: the document \"main:Sandbox.WebHome\" has no attachment \"nope.txt\" \
             (get_document lists its attachments). Nothing was changed.",
        ),
        (
            json!({"reference": "Sandbox.Nowhere", "filename": "a.txt", "base_version": "1.1"}),
            "Error: the document \"main:Sandbox.Nowhere\" does not exist. Nothing was changed.",
        ),
    ] {
        farm.refuses(TOOL, "alice", arguments, &[Exactly(expected)])
            .await;
    }
}

#[backend_test]
async fn the_guest_and_a_user_without_edit_right_are_refused() {
    let farm = farm();
    let now = version(&farm, "Sandbox.WebHome").unwrap_or_else(|| panic!("seeded"));
    let arguments = json!({"reference": "Sandbox.WebHome", "filename": "notes.txt",
                           "base_version": now.to_string()});
    farm.refuses_the_guest_and_a_reader(TOOL, arguments).await;
}
