//! delete_document through the middleware: the recycle bin with every translation, the order of
//! refusals (existence, denylist, version, children with the exact count), the delete right,
//! and restoring from the bin as the admin command does.

use serde_json::{Value, json};
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::document::DocumentSave;

use crate::harness::text;
use crate::harness::unchanged::Says::{Contains, Exactly, StartsWith};
use crate::harness::{Farm, locale, ok, reference, wiki};
use crate::write_document::{stored, writable_farm};

const TOOL: &str = "delete_document";

async fn delete(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call_confirmed(TOOL, arguments, user, "main").await
}

#[backend_test]
async fn a_document_goes_to_the_bin_with_its_translations_and_comes_back() {
    let farm = writable_farm();
    let deleted = text(
        delete(
            &farm,
            json!({"reference": "Help.Guide", "base_version": "1.1"}),
            "admin",
        )
        .await,
    );
    assert_eq!(
        deleted,
        "Deleted document main:Help.Guide (version 1.1) to the recycle bin.\nIts translations \
         were deleted with it: fr.\nrestore_document reference=\"main:Help.Guide\" brings it back \
         (with every translation, attachment and object)."
    );
    assert!(stored(&farm, "Help.Guide", None).is_none());
    assert!(stored(&farm, "Help.Guide", Some(&locale("fr"))).is_none());
    let bin = ok(farm.store.trash(&wiki("main")));
    let entry = bin
        .iter()
        .find(|entry| entry.reference == reference("Help.Guide"))
        .unwrap_or_else(|| panic!("not in the bin"));
    assert_eq!(entry.comment, "[AI] Deleted document");
    assert_eq!(entry.deleted_by, "admin");
    ok(farm.store.restore(entry.id, "admin"));
    assert!(stored(&farm, "Help.Guide", Some(&locale("fr"))).is_some());
}

/// A delete retried after it succeeded answers that the page is already deleted; a page deleted
/// at another version than the one sent says so, and is not a success.
#[backend_test]
async fn a_retried_delete_is_already_deleted() {
    let farm = writable_farm();
    let send = json!({"reference": "Help.Guide", "base_version": "1.1"});
    text(delete(&farm, send.clone(), "admin").await);
    let again = farm.call_result(TOOL, send, "admin", "main").await;
    assert_eq!(again.is_error, Some(false));
    let said = again.content[0]
        .as_text()
        .map(|t| t.text.clone())
        .unwrap_or_default();
    assert!(
        said.starts_with(
            "Already deleted: main:Help.Guide is in the recycle bin, deleted by admin on "
        ) && said.ends_with(
            " at version 1.1 (comment: \"[AI] Deleted document\"). Nothing was changed."
        ),
        "{said}"
    );
    assert_eq!(
        again
            .structured_content
            .map(|value| (value["change"].clone(), value["version"].clone())),
        Some((json!("deleted"), json!("1.1")))
    );
    assert_eq!(ok(farm.store.trash(&wiki("main"))).len(), 1);
    farm.refuses(
        TOOL,
        "admin",
        json!({"reference": "Help.Guide", "base_version": "1.5"}),
        &[StartsWith(
            "Error: main:Help.Guide is already in the recycle bin, deleted by admin",
        )],
    )
    .await;
}

#[backend_test]
async fn refusals_come_in_order_and_delete_nothing() {
    let farm = writable_farm();
    ok(farm.store.save_document(&DocumentSave::new(
        reference("Sandbox.WebPreferences"),
        "prefs",
        "admin",
    )));
    for (arguments, expected) in [
        (
            json!({"reference": "Sandbox.Nothing", "base_version": "1.1"}),
            Contains("does not exist"),
        ),
        // The denylist comes before the version check.
        (
            json!({"reference": "Sandbox.WebPreferences", "base_version": "9.9"}),
            Contains("holds preferences"),
        ),
        (
            json!({"reference": "Sandbox.Notes"}),
            StartsWith("Error: 'base_version' parameter is required."),
        ),
        (
            json!({"reference": "Sandbox.Notes", "base_version": "1.1"}),
            StartsWith(
                "Version conflict: the document is now at version 2.1 but base_version is 1.1.",
            ),
        ),
        (
            json!({"reference": "MCP.ServerConfig", "base_version": "1.1"}),
            Contains("MCP configuration"),
        ),
    ] {
        farm.refuses(TOOL, "admin", arguments, &[expected]).await;
    }
}

#[backend_test]
async fn a_space_home_with_children_is_refused_with_the_exact_count() {
    let farm = writable_farm();
    // Help holds Guide (with its fr translation), Nested.WebHome and Nested.Deep.
    let home = json!({"reference": "Help.WebHome", "base_version": "1.1"});
    let refused = farm.refuses(TOOL, "admin", home.clone(), &[]).await;
    assert!(
        refused.contains("No such") || refused.contains("does not exist"),
        "{refused}"
    );
    ok(farm.store.save_document(&DocumentSave::new(
        reference("Help.WebHome"),
        "help home",
        "admin",
    )));
    ok(farm.store.save_document(
        &DocumentSave::new(reference("Help.Secret"), "hidden", "admin").hidden(true),
    ));
    let count = Contains("still holds 5 other document(s)");
    farm.refuses(TOOL, "admin", home, &[count]).await;
    // A home whose only other page is its preferences page goes; the preferences stay.
    for (page, content) in [("Solo.WebHome", "home"), ("Solo.WebPreferences", "prefs")] {
        ok(farm
            .store
            .save_document(&DocumentSave::new(reference(page), content, "admin")));
    }
    let solo = text(
        delete(
            &farm,
            json!({"reference": "Solo", "base_version": "1.1"}),
            "admin",
        )
        .await,
    );
    assert!(
        solo.contains("The space's preferences page main:Solo.WebPreferences was left in place."),
        "{solo}"
    );
    assert!(stored(&farm, "Solo.WebPreferences", None).is_some());
}

#[backend_test]
async fn the_delete_right_is_needed() {
    let farm = writable_farm();
    // alice may edit main but not delete.
    let arguments = json!({"reference": "Sandbox.Notes", "base_version": "2.1"});
    let denied = Exactly("You do not have permission to delete \"main:Sandbox.Notes\".");
    farm.refuses(TOOL, "alice", arguments, &[denied]).await;
    assert!(ok(farm.store.wiki(&wiki("main"))).is_some());
}
