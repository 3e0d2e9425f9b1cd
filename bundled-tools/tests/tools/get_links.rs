//! `get_links` through the real middleware: backlinks authorized and counted (denied sources
//! absent from list and count, hidden ones counted apart), broken targets, outgoing links as
//! authored, paging, refused combinations, reach.

use serde_json::{Value, json};
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::attachment::AttachmentDelete;
use wiki_tool_sdk::store::model::document::{DocumentSave, Expected};
use wiki_tool_sdk::store::model::trash::DocumentDelete;

use crate::harness::{Farm, GUEST, ok, reference};

async fn links(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call("get_links", arguments, user, "main").await
}

/// Saves `text` with `content` as alice, hidden or not.
fn page(farm: &Farm, text: &str, content: &str, hidden: bool) {
    let save = DocumentSave::new(reference(text), content, "alice").hidden(hidden);
    ok(farm.store.save_document(&save));
}

#[backend_test]
async fn backlinks_list_the_sources_under_a_header() {
    let farm = Farm::new();
    let text = links(&farm, json!({"reference": "Sandbox.Notes"}), "alice").await;
    assert_eq!(
        text,
        Ok(
            "Links of main:Sandbox.Notes (direction: in)\nIncoming links: 1 backlink\n  \
            main:Sandbox.WebHome"
                .to_owned()
        )
    );
}

/// Each target of the page shown is checked: deleted pages and attachments are marked so, a
/// page the caller may not view reads as missing whether or not it is in the bin, and the
/// structured list carries the same status.
#[backend_test]
async fn outgoing_targets_are_marked_missing_or_deleted() {
    let farm = Farm::new();
    farm.save(
        "Sandbox.Links",
        "[g](Help.Guide) [s](Secret.Plans) [n](Sandbox.Notes) ![f](attach:Sandbox.WebHome@notes.txt) \
         ![p](attach:Sandbox.WebHome@logo.png) ![q](attach:Help.Guide@none.txt)\n",
        "links",
    );
    for page in ["Help.Guide", "Secret.Plans"] {
        ok(farm.store.delete_document(&DocumentDelete {
            reference: reference(page),
            author: "admin".into(),
            comment: String::new(),
            expected: Expected::Any,
        }));
    }
    ok(farm.store.delete_attachment(&AttachmentDelete {
        reference: reference("Sandbox.WebHome"),
        name: "notes.txt".into(),
        author: "admin".into(),
        comment: String::new(),
        expected: Expected::Any,
    }));
    let arguments = json!({"reference": "Sandbox.Links", "direction": "out"});
    let alice = ok(links(&farm, arguments.clone(), "alice").await);
    assert_eq!(
        alice,
        "Links of main:Sandbox.Links (direction: out)\nOutgoing links: 3 documents, 3 \
         attachments; 1 missing, 3 deleted\nDocuments:\n  main:Help.Guide (deleted)\n  \
         main:Secret.Plans (missing)\n  main:Sandbox.Notes\nAttachments:\n  \
         main:Sandbox.WebHome@notes.txt (deleted)\n  main:Sandbox.WebHome@logo.png\n  \
         main:Help.Guide@none.txt (deleted)"
    );
    let bob = ok(links(&farm, arguments.clone(), "bob").await);
    assert!(bob.contains("  main:Secret.Plans (deleted)\n"), "{bob}");
    let result = farm
        .call_result("get_links", arguments, "alice", "main")
        .await;
    let outgoing = result
        .structured_content
        .map(|value| value["outgoing"].clone())
        .unwrap_or_default();
    assert_eq!(
        outgoing["documents"],
        json!([
            {"reference": "main:Help.Guide", "status": "deleted"},
            {"reference": "main:Secret.Plans", "status": "missing"},
            {"reference": "main:Sandbox.Notes", "status": "exists"},
        ])
    );
    assert_eq!(outgoing["attachments"][0]["status"], "deleted");
    assert_eq!(outgoing["attachments"][1]["status"], "exists");
}

#[backend_test]
async fn outgoing_links_are_listed_as_authored_in_sections() {
    let farm = Farm::new();
    farm.save(
        "Sandbox.Links",
        "[z](Zeta.Missing) [g](Help.Guide) [s](Secret.Plans) [g again](Help.Guide) \
         ![f](attach:Sandbox.WebHome@notes.txt) [u](https://example.com)\n",
        "links",
    );
    let text = links(
        &farm,
        json!({"reference": "Sandbox.Links", "direction": "out"}),
        "alice",
    )
    .await;
    assert_eq!(
        text,
        Ok(
            "Links of main:Sandbox.Links (direction: out)\nOutgoing links: 3 documents, 1 \
            attachment; 2 missing, 0 deleted\nDocuments:\n  main:Zeta.Missing (missing)\n  \
            main:Help.Guide\n  main:Secret.Plans (missing)\nAttachments:\n  \
            main:Sandbox.WebHome@notes.txt"
                .to_owned()
        )
    );
    let none = ok(links(
        &farm,
        json!({"reference": "Sandbox.Notes", "direction": "out"}),
        "alice",
    )
    .await);
    assert!(none.ends_with("This document has no wiki links."));
    let french = ok(links(
        &farm,
        json!({"reference": "Help.Guide", "direction": "out", "locale": "fr"}),
        "alice",
    )
    .await);
    assert!(french.ends_with("This document has no wiki links."));
    let missing = links(
        &farm,
        json!({"reference": "Help.Guide", "direction": "out", "locale": "de"}),
        "alice",
    )
    .await;
    assert!(missing.is_err_and(|e| e.starts_with("Error: no \"de\" translation")));
}

#[backend_test]
async fn broken_targets_are_allowed_for_backlinks_only() {
    let farm = Farm::new();
    farm.save("Sandbox.Broken", "[gone](Old.Page)\n", "broken");
    let text = ok(links(&farm, json!({"reference": "Old.Page"}), "alice").await);
    let both = ok(links(
        &farm,
        json!({"reference": "Old.Page", "direction": "both"}),
        "alice",
    )
    .await);
    assert!(
        both.ends_with(
            "  main:Sandbox.Broken\n\nOutgoing links: none (the document does not exist)"
        )
    );
    assert!(text.ends_with("Incoming links: 1 backlink\n  main:Sandbox.Broken"));
    let out = links(
        &farm,
        json!({"reference": "Old.Page", "direction": "out"}),
        "alice",
    )
    .await;
    assert!(out.is_err_and(|e| e.starts_with("No such document: \"main:Old.Page\".")));
    let nothing = ok(links(&farm, json!({"reference": "Nobody.Links"}), "alice").await);
    assert!(nothing.contains("Incoming links: 0 backlinks\nNo document you can view links here."));
}

#[backend_test]
async fn denied_sources_are_neither_listed_nor_counted() {
    let farm = Farm::new();
    farm.save("Secret.Draft", "[guide](Help.Guide)\n", "draft");
    let alice = ok(links(&farm, json!({"reference": "Help.Guide"}), "alice").await);
    assert!(alice.contains("Incoming links: 1 backlink\n"), "{alice}");
    assert!(!alice.contains("Secret"));
    let bob = ok(links(&farm, json!({"reference": "Help.Guide"}), "bob").await);
    assert!(
        bob.contains("Incoming links: 2 backlinks\n  main:Sandbox.WebHome\n  main:Secret.Draft")
    );
    // The target itself goes through the door first.
    let denied = links(&farm, json!({"reference": "Secret.Plans"}), "alice").await;
    assert_eq!(
        denied,
        Err("You do not have permission to view \"main:Secret.Plans\".".to_owned())
    );
    let guest = links(&farm, json!({"reference": "Secret.Plans"}), GUEST).await;
    assert!(guest.is_err());
}

#[backend_test]
async fn hidden_sources_are_counted_apart_unless_shown() {
    let farm = Farm::new();
    page(&farm, "Hidden.Linker", "[guide](Help.Guide)\n", true);
    let counted = ok(links(&farm, json!({"reference": "Help.Guide"}), "alice").await);
    assert!(
        counted.contains("Incoming links: 1 backlink (+1 hidden)\n  main:Sandbox.WebHome"),
        "{counted}"
    );
    assert!(!counted.contains("Hidden.Linker"));
    let shown = ok(links(
        &farm,
        json!({"reference": "Help.Guide", "showHidden": true}),
        "alice",
    )
    .await);
    assert!(shown.contains("Incoming links: 2 backlinks, hidden included\n"));
    assert!(shown.contains("  main:Hidden.Linker\n"));
}

#[backend_test]
async fn paging_continues_where_the_footer_says() {
    let farm = Farm::new();
    let saves: Vec<DocumentSave> = (0..60)
        .map(|i| {
            DocumentSave::new(
                reference(&format!("Many.Src{i:02}")),
                "[t](Target.Page)\n",
                "alice",
            )
        })
        .collect();
    ok(farm.store.save_documents(&saves));
    let first = ok(links(&farm, json!({"reference": "Target.Page"}), "alice").await);
    assert!(first.contains("Incoming links: 60 backlinks\n"));
    assert!(
        first
            .ends_with("  main:Many.Src49\nShowing backlinks 1-50 of 60; continue with offset=50.")
    );
    let rest = ok(links(
        &farm,
        json!({"reference": "Target.Page", "offset": 50}),
        "alice",
    )
    .await);
    let sources: Vec<&str> = rest.lines().filter(|l| l.starts_with("  main:")).collect();
    assert_eq!(sources.len(), 10);
    assert_eq!(sources[0], "  main:Many.Src50");
    assert!(rest.ends_with("  main:Many.Src59"));
    let capped = ok(links(
        &farm,
        json!({"reference": "Target.Page", "limit": 500}),
        "alice",
    )
    .await);
    assert_eq!(
        capped.lines().filter(|l| l.starts_with("  main:")).count(),
        60
    );
    let past = ok(links(
        &farm,
        json!({"reference": "Target.Page", "offset": 60}),
        "alice",
    )
    .await);
    assert!(past.ends_with("(no backlinks at offset 60: there are 60; use a smaller offset)"));
    let negative = links(
        &farm,
        json!({"reference": "Target.Page", "offset": -5}),
        "alice",
    )
    .await;
    assert_eq!(
        negative,
        Err("Error: 'offset' must be 0 or more (got -5).".to_owned())
    );
}

#[backend_test]
async fn both_directions_and_refused_combinations() {
    let farm = Farm::new();
    let both = ok(links(
        &farm,
        json!({"reference": "Sandbox.WebHome", "direction": "both"}),
        "alice",
    )
    .await);
    assert!(both.starts_with("Links of main:Sandbox.WebHome (direction: both)\nIncoming links: "));
    assert!(both.contains("\n\nOutgoing links: 2 documents, 0 attachments"));
    let locale_in = links(
        &farm,
        json!({"reference": "Help.Guide", "locale": "fr"}),
        "alice",
    )
    .await;
    assert!(
        locale_in.is_err_and(|e| e.starts_with("Error: 'locale' applies only to outgoing links"))
    );
    let hidden_out = links(
        &farm,
        json!({"reference": "Help.Guide", "direction": "out", "showHidden": true}),
        "alice",
    )
    .await;
    assert!(
        hidden_out.is_err_and(|e| e.starts_with("Error: 'showHidden' applies only to backlinks"))
    );
    let sideways = links(
        &farm,
        json!({"reference": "Help.Guide", "direction": "up"}),
        "alice",
    )
    .await;
    assert_eq!(
        sideways,
        Err("Error: 'direction' must be one of: in, out, both (got \"up\").".to_owned())
    );
}

#[backend_test]
async fn other_wikis_need_reach() {
    let farm = Farm::new();
    let sub = ok(links(&farm, json!({"reference": "sub:Team.Roadmap"}), "alice").await);
    assert!(sub.ends_with("Incoming links: 1 backlink\n  sub:Team.WebHome"));
    let param = ok(links(
        &farm,
        json!({"reference": "Team.Roadmap", "wiki": "sub"}),
        "alice",
    )
    .await);
    assert_eq!(param, sub);
    // A main page linking into sub is a backlink seen from a reaching endpoint only.
    farm.save("Sandbox.Cross", "[roadmap](sub:Team.Roadmap)\n", "cross");
    let reached = ok(links(&farm, json!({"reference": "sub:Team.Roadmap"}), "alice").await);
    assert!(reached.contains("main:Sandbox.Cross"));
    let local = ok(farm
        .call(
            "get_links",
            json!({"reference": "Team.Roadmap"}),
            "alice",
            "sub",
        )
        .await);
    assert!(!local.contains("main:Sandbox.Cross"), "{local}");
    let refused = farm
        .call(
            "get_links",
            json!({"reference": "main:Help.Guide"}),
            "alice",
            "sub",
        )
        .await;
    assert!(refused.is_err_and(|e| e.contains("cross-wiki reach is not enabled")));
}

#[backend_test]
async fn forged_names_and_references_stay_on_their_line() {
    let farm = Farm::new();
    farm.save(
        "Sandbox.Forger",
        "[x](Evil.Name\u{202E}Trick) ![y](attach:Sandbox.WebHome@a\u{2028}b.txt)\n",
        "forge",
    );
    let out = ok(links(
        &farm,
        json!({"reference": "Sandbox.Forger", "direction": "out"}),
        "alice",
    )
    .await);
    assert!(
        !out.contains('\u{202E}') && !out.contains('\u{2028}'),
        "{out:?}"
    );
    let echo = links(
        &farm,
        json!({"reference": "Sandbox.Forger\nIncoming links: 99"}),
        "alice",
    )
    .await;
    assert!(echo.is_err_and(|e| e.lines().count() == 1));
}
