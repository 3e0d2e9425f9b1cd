//! restore_document and the deleted-page answers through the middleware: a page in the recycle
//! bin is not "no such document" for get_document, get_history and get_links (who deleted it,
//! when, at which version, and how it comes back, for the callers who may view it), and
//! restore_document brings it back with every translation and attachment, refusing a page that
//! exists again, an entry that is gone or of another page, and the callers without the edit
//! right.

use serde_json::{Value, json};
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::attachment::{AttachmentDelete, AttachmentWrite};
use wiki_tool_sdk::store::model::document::{DocumentSave, Expected};

use crate::harness::unchanged::Says::{Contains, Exactly, StartsWith};
use crate::harness::{Farm, GUEST, error, locale, ok, reference, text, wiki};

/// The tools the recycle-bin tests serve on `main`.
const BIN_TOOLS: [&str; 9] = [
    "get_document",
    "get_history",
    "get_links",
    "get_attachment",
    "write_document",
    "delete_document",
    "delete_attachment",
    "restore_document",
    "list_trash",
];

/// The seeded farm with the recycle-bin tools enabled on `main`.
pub(crate) fn bin_farm() -> Farm {
    let farm = Farm::new();
    farm.configure("main", |config| {
        config.enabled_tools = BIN_TOOLS.iter().map(|t| (*t).to_owned()).collect();
    });
    farm
}

/// Deletes `page` (at `version`) as admin through delete_document, the person accepting.
pub(crate) async fn delete(farm: &Farm, page: &str, version: &str) {
    text(
        farm.call_confirmed(
            "delete_document",
            json!({"reference": page, "base_version": version, "comment": "cleanup"}),
            "admin",
            "main",
        )
        .await,
    );
}

async fn restore(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call("restore_document", arguments, user, "main").await
}

#[backend_test]
async fn a_deleted_page_says_who_deleted_it_when_and_how_it_comes_back() {
    let farm = bin_farm();
    delete(&farm, "Help.Guide", "1.1").await;
    let said = error(
        farm.call(
            "get_document",
            json!({"reference": "Help.Guide"}),
            "alice",
            "main",
        )
        .await,
    );
    assert!(
        said.starts_with(
            "Deleted document: \"main:Help.Guide\" is in the recycle bin, deleted by admin on "
        ),
        "{said}"
    );
    assert!(
        said.ends_with(
            " at version 1.1 (comment: \"[AI] cleanup\"). restore_document \
             reference=\"main:Help.Guide\" brings it back with its translations, attachments \
             and objects."
        ),
        "{said}"
    );
    // bob may view it but not edit it: told who can bring it back.
    let history = error(
        farm.call(
            "get_history",
            json!({"reference": "Help.Guide"}),
            "bob",
            "main",
        )
        .await,
    );
    assert!(
        history.starts_with("Deleted document: \"main:Help.Guide\" is in the recycle bin")
            && history.ends_with(
                "Someone with the edit right on it can bring it back (restore_document)."
            ),
        "{history}"
    );
    let links = text(
        farm.call(
            "get_links",
            json!({"reference": "Help.Guide"}),
            "alice",
            "main",
        )
        .await,
    );
    assert!(
        links.contains("\nThe document is in the recycle bin, deleted by admin on ")
            && links.contains("Incoming links: 1 backlink\n  main:Sandbox.WebHome"),
        "{links}"
    );
    let both = text(
        farm.call(
            "get_links",
            json!({"reference": "Help.Guide", "direction": "both"}),
            "alice",
            "main",
        )
        .await,
    );
    assert!(
        both.contains("Outgoing links: none (the document is in the recycle bin, deleted by"),
        "{both}"
    );
    // A page never deleted still reads as missing.
    let never = error(
        farm.call(
            "get_document",
            json!({"reference": "Help.Never"}),
            "alice",
            "main",
        )
        .await,
    );
    assert_eq!(never, "No such document: \"main:Help.Never\".");
}

#[backend_test]
async fn a_deleted_page_the_caller_may_not_view_answers_as_before() {
    let farm = bin_farm();
    delete(&farm, "Secret.Plans", "1.2").await;
    for tool in ["get_document", "get_history", "restore_document"] {
        let said = error(
            farm.call(tool, json!({"reference": "Secret.Plans"}), "alice", "main")
                .await,
        );
        assert_eq!(
            said, "You do not have permission to view \"main:Secret.Plans\".",
            "{tool}"
        );
    }
    let listed = text(farm.call("list_trash", json!({}), "alice", "main").await);
    assert!(!listed.contains("Secret"), "{listed}");
    let bob = text(farm.call("list_trash", json!({}), "bob", "main").await);
    assert!(bob.contains("main:Secret.Plans: deleted by admin"), "{bob}");
}

#[backend_test]
async fn a_page_comes_back_with_its_translations_attachments_and_history() {
    let farm = bin_farm();
    ok(farm.store.write_attachment(&AttachmentWrite {
        reference: reference("Help.Guide"),
        name: "a.txt".into(),
        content: b"bytes".to_vec(),
        author: "alice".into(),
        comment: String::new(),
        expected: Expected::Any,
    }));
    delete(&farm, "Help.Guide", "1.2").await;
    let restored = text(restore(&farm, json!({"reference": "Help.Guide"}), "alice").await);
    assert!(
        restored.starts_with(
            "Restored document main:Help.Guide from the recycle bin, with its translations, \
             attachments and objects (it was deleted by admin on "
        ) && restored.ends_with("at version 1.2 (comment: \"[AI] cleanup\")).\nVersion: 1.2"),
        "{restored}"
    );
    let guide = reference("Help.Guide");
    let page = ok(farm.store.document(&guide, None)).map(|d| d.version.to_string());
    assert_eq!(page.as_deref(), Some("1.2"));
    assert!(ok(farm.store.document(&guide, Some(&locale("fr")))).is_some());
    assert!(ok(farm.store.attachment(&guide, "a.txt")).is_some());
    assert_eq!(
        ok(farm.store.history(&guide, None, 0, 10)).map(|h| h.total),
        Some(2)
    );
    assert!(ok(farm.store.trash(&wiki("main"))).is_empty());
    // Restored twice: the second call changes nothing and says why.
    delete(&farm, "Help.Guide", "1.2").await;
    let first = farm
        .call_result(
            "restore_document",
            json!({"reference": "Help.Guide"}),
            "alice",
            "main",
        )
        .await;
    assert_eq!(
        first.structured_content,
        Some(json!({
            "reference": "main:Help.Guide",
            "change": "restored",
            "version": "1.2",
        }))
    );
    assert!(
        ok(farm
            .store
            .document(&reference("Help.Guide"), Some(&locale("fr"))))
        .is_some()
    );
    farm.refuses(
        "restore_document",
        "alice",
        json!({"reference": "Help.Guide"}),
        &[Exactly(
            "Error: \"main:Help.Guide\" exists and the recycle bin holds no deletion of it: \
             there is nothing to restore. Nothing was restored.",
        )],
    )
    .await;
}

#[backend_test]
async fn a_page_that_exists_again_is_not_overwritten() {
    let farm = bin_farm();
    delete(&farm, "Help.Guide", "1.1").await;
    ok(farm.store.save_document(&DocumentSave::new(
        reference("Help.Guide"),
        "new text",
        "bob",
    )));
    let entry = ok(farm.store.trash(&wiki("main")))[0].id;
    let refused = farm
        .refuses(
            "restore_document",
            "alice",
            json!({"reference": "Help.Guide"}),
            &[StartsWith(
                "Error: \"main:Help.Guide\" exists again (someone created a page",
            )],
        )
        .await;
    assert!(
        refused.ends_with(&format!(
            "the deleted version stays in the recycle bin (entry {entry}). Rename or delete the \
             new page first, or copy what you need from it."
        )),
        "{refused}"
    );
    let listed = text(farm.call("list_trash", json!({}), "alice", "main").await);
    assert!(
        listed.contains(&format!(
            "#{entry} main:Help.Guide (exists again): deleted by admin"
        )),
        "{listed}"
    );
}

#[backend_test]
async fn an_entry_restores_an_attachment_or_an_older_deletion_of_the_page() {
    let farm = bin_farm();
    let deleted = ok(farm.store.delete_attachment(&AttachmentDelete {
        reference: reference("Sandbox.WebHome"),
        name: "notes.txt".into(),
        author: "alice".into(),
        comment: String::new(),
        expected: Expected::Any,
    }));
    let entry = deleted.trash.0;
    let listed = text(farm.call("list_trash", json!({}), "alice", "main").await);
    assert!(
        listed.contains(&format!(
            "#{entry} main:Sandbox.WebHome@notes.txt (attachment): deleted by alice"
        )),
        "{listed}"
    );
    // Without entry the page's own deletion is meant: there is none, the page exists.
    farm.refuses(
        "restore_document",
        "alice",
        json!({"reference": "Sandbox.WebHome"}),
        &[Contains("holds no deletion of it")],
    )
    .await;
    farm.refuses(
        "restore_document",
        "alice",
        json!({"reference": "Help.Guide", "entry": entry}),
        &[Exactly(&format!(
            "Error: the recycle bin holds no entry {entry} of \"main:Help.Guide\". list_trash \
             shows each entry's id and page. Nothing was restored."
        ))],
    )
    .await;
    let restored = text(
        restore(
            &farm,
            json!({"reference": "Sandbox.WebHome", "entry": entry}),
            "alice",
        )
        .await,
    );
    assert!(
        restored.starts_with(
            "Restored attachment notes.txt onto main:Sandbox.WebHome from the recycle bin"
        ) && restored.ends_with("\nVersion: 1.6"),
        "{restored}"
    );
    assert!(
        ok(farm
            .store
            .attachment(&reference("Sandbox.WebHome"), "notes.txt"))
        .is_some()
    );
    farm.refuses(
        "restore_document",
        "alice",
        json!({"reference": "Sandbox.WebHome", "entry": entry}),
        &[Contains(&format!("holds no entry {entry} of"))],
    )
    .await;
}

#[backend_test]
async fn only_an_editor_restores() {
    let farm = bin_farm();
    delete(&farm, "Help.Guide", "1.1").await;
    farm.refuses_the_guest_and_a_reader("restore_document", json!({"reference": "Help.Guide"}))
        .await;
    let guest = error(
        farm.call(
            "get_document",
            json!({"reference": "Help.Guide"}),
            GUEST,
            "main",
        )
        .await,
    );
    assert!(
        guest.ends_with("Someone with the edit right on it can bring it back (restore_document)."),
        "{guest}"
    );
}
