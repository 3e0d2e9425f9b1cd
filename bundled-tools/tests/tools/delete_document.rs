//! delete_document through the middleware: the recycle bin with every translation, the order of
//! refusals (existence, denylist, version, children with the exact count), the delete right,
//! and restoring from the bin as the admin command does.

use serde_json::{Value, json};
use wiki_store::TrashStore;
use wiki_store::model::document::DocumentSave;
use wiki_store::{DocumentStore, WikiStore as _};

use crate::harness::{Farm, locale, ok, reference, wiki};
use crate::harness::{error, text};
use crate::write_document::{stored, writable_farm};

async fn delete(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call("delete_document", arguments, user, "main").await
}

#[tokio::test]
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
         were deleted with it: fr.\nAn administrator can restore it from the recycle bin (with \
         every translation, attachment and object)."
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

#[tokio::test]
async fn refusals_come_in_order_and_delete_nothing() {
    let farm = writable_farm();
    let missing = error(
        delete(
            &farm,
            json!({"reference": "Sandbox.Nothing", "base_version": "1.1"}),
            "admin",
        )
        .await,
    );
    assert!(missing.contains("does not exist"), "{missing}");
    ok(farm.store.save_document(&DocumentSave::new(
        reference("Sandbox.WebPreferences"),
        "prefs",
        "admin",
    )));
    // The denylist comes before the version check.
    let preferences = error(
        delete(
            &farm,
            json!({"reference": "Sandbox.WebPreferences", "base_version": "9.9"}),
            "admin",
        )
        .await,
    );
    assert!(preferences.contains("holds preferences"), "{preferences}");
    let required = error(delete(&farm, json!({"reference": "Sandbox.Notes"}), "admin").await);
    assert!(
        required.starts_with("Error: 'base_version' is required to delete"),
        "{required}"
    );
    let stale = error(
        delete(
            &farm,
            json!({"reference": "Sandbox.Notes", "base_version": "1.1"}),
            "admin",
        )
        .await,
    );
    assert!(
        stale.starts_with(
            "Version conflict: the document is now at version 2.1 but base_version is 1.1."
        ),
        "{stale}"
    );
    let config = error(
        delete(
            &farm,
            json!({"reference": "MCP.ServerConfig", "base_version": "1.1"}),
            "admin",
        )
        .await,
    );
    assert!(config.contains("MCP configuration"), "{config}");
    assert!(stored(&farm, "Sandbox.Notes", None).is_some());
    assert!(stored(&farm, "Sandbox.WebPreferences", None).is_some());
    assert!(ok(farm.store.trash(&wiki("main"))).is_empty());
}

#[tokio::test]
async fn a_space_home_with_children_is_refused_with_the_exact_count() {
    let farm = writable_farm();
    // Help holds Guide (with its fr translation), Nested.WebHome and Nested.Deep.
    let refused = error(
        delete(
            &farm,
            json!({"reference": "Help.WebHome", "base_version": "1.1"}),
            "admin",
        )
        .await,
    );
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
    let refused = error(
        delete(
            &farm,
            json!({"reference": "Help.WebHome", "base_version": "1.1"}),
            "admin",
        )
        .await,
    );
    assert!(
        refused.contains("still holds 5 other document(s)"),
        "{refused}"
    );
    assert!(stored(&farm, "Help.WebHome", None).is_some());
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

#[tokio::test]
async fn the_delete_right_is_needed() {
    let farm = writable_farm();
    // alice may edit main but not delete.
    let denied = error(
        delete(
            &farm,
            json!({"reference": "Sandbox.Notes", "base_version": "2.1"}),
            "alice",
        )
        .await,
    );
    assert_eq!(
        denied,
        "You do not have permission to delete \"main:Sandbox.Notes\"."
    );
    assert!(stored(&farm, "Sandbox.Notes", None).is_some());
    assert!(ok(farm.store.wiki(&wiki("main"))).is_some());
}
