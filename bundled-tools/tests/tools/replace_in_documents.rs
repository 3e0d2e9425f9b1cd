//! `replace_in_documents` through the real middleware: the preview lists the pages that contain
//! the text with their counts and versions and writes nothing; the apply saves each page under
//! a compare-and-set on the previewed version, one page's conflict leaving it untouched and the
//! others saved; one confirmation covers the whole call and a decline writes nothing; pages the
//! caller cannot view are never named, pages it cannot edit are refused.

use serde_json::{Value, json};
use wiki_server::testing::Answer;
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::document::DocumentSave;

use crate::harness::{Farm, GUEST, error, ok, reference, text};

const TOOL: &str = "replace_in_documents";

/// The seeded farm with the tool enabled on `main`, and four pages about Acme: two hold the
/// exact text twice and once, one only the word, and one sits in `Secret`, which only bob may
/// view.
fn farm() -> Farm {
    let farm = Farm::new();
    farm.configure("main", |config| {
        config.enabled_tools = vec![TOOL.to_owned(), "get_document".to_owned()];
    });
    for (page, content) in [
        ("Ops.Alpha", "Acme Inc. ships.\nAsk Acme Inc. first.\n"),
        ("Ops.Beta", "Bought from Acme Inc.\n"),
        ("Ops.Gamma", "Acme Corporation is another firm.\n"),
        ("Secret.Acme", "Acme Inc. secret.\n"),
    ] {
        let save = DocumentSave::new(reference(page), content, "alice")
            .title(page.rsplit('.').next().unwrap_or(page))
            .comment("Created");
        ok(farm.store.save_document(&save));
    }
    farm
}

fn content(farm: &Farm, page: &str) -> String {
    ok(farm.store.document(&reference(page), None))
        .map(|row| row.content)
        .unwrap_or_default()
}

fn preview_of_acme() -> Value {
    json!({"find": "Acme Inc.", "replace": "Acme Corp.", "query": "Acme"})
}

fn apply_to(pages: Value) -> Value {
    json!({"find": "Acme Inc.", "replace": "Acme Corp.", "pages": pages})
}

fn both_ops_pages() -> Value {
    json!([
        {"reference": "main:Ops.Alpha", "base_version": "1.1"},
        {"reference": "main:Ops.Beta", "base_version": "1.1"}
    ])
}

#[backend_test]
async fn the_preview_lists_counts_and_versions_and_writes_nothing() {
    let farm = farm();
    let said = text(farm.call(TOOL, preview_of_acme(), "alice", "main").await);
    assert_eq!(
        said,
        "Preview, nothing written: 2 pages of the 3 selected pages read contain the text; 3 \
         replacements in the 2 pages you may edit.\n\
         - main:Ops.Alpha (version 1.1): 2 replacements\n\
         - main:Ops.Beta (version 1.1): 1 replacement\n\
         To apply, call replace_in_documents with the same find and replace and \
         pages=[{\"reference\": \"main:Ops.Alpha\", \"base_version\": \"1.1\"}, \
         {\"reference\": \"main:Ops.Beta\", \"base_version\": \"1.1\"}]"
    );
    assert!(!said.contains("Secret"), "{said}");
    assert_eq!(
        content(&farm, "Ops.Alpha"),
        "Acme Inc. ships.\nAsk Acme Inc. first.\n"
    );
    // A space selects too, and the structured result carries the same pages.
    let called = farm
        .caller("alice", "main")
        .call(
            TOOL,
            json!({"find": "Acme Inc.", "replace": "Acme Corp.", "space": "Ops"}),
        )
        .await;
    let value = called
        .structured()
        .unwrap_or_else(|| panic!("no structured result"));
    assert_eq!(value["pages"][0]["reference"], json!("main:Ops.Alpha"));
    assert_eq!(value["pages"][0]["replacements"], json!(2));
    assert_eq!(value["pages"][1]["status"], json!("matches"));
    assert_eq!(value["pages"].as_array().map(Vec::len), Some(2));
}

#[backend_test]
async fn the_apply_saves_each_previewed_page() {
    let farm = farm();
    let said = text(
        farm.call_confirmed(TOOL, apply_to(both_ops_pages()), "alice", "main")
            .await,
    );
    assert_eq!(
        said,
        "Replaced in 2 of 2 pages: 3 replacements.\n\
         - main:Ops.Alpha: 2 replacements, version 1.1 -> 1.2\n\
         - main:Ops.Beta: 1 replacement, version 1.1 -> 1.2"
    );
    assert_eq!(
        content(&farm, "Ops.Alpha"),
        "Acme Corp. ships.\nAsk Acme Corp. first.\n"
    );
    assert_eq!(content(&farm, "Ops.Beta"), "Bought from Acme Corp.\n");
    assert_eq!(
        content(&farm, "Ops.Gamma"),
        "Acme Corporation is another firm.\n"
    );
    assert_eq!(content(&farm, "Secret.Acme"), "Acme Inc. secret.\n");
    // Sent again, nothing is written twice: both pages moved on.
    let again = error(
        farm.call_confirmed(TOOL, apply_to(both_ops_pages()), "alice", "main")
            .await,
    );
    assert!(again.starts_with("Replaced in 0 of 2 pages"), "{again}");
}

#[backend_test]
async fn a_page_changed_since_the_preview_is_left_untouched_and_the_others_are_saved() {
    let farm = farm();
    farm.save("Ops.Alpha", "Acme Inc. changed by someone.\n", "edit");
    let said = text(
        farm.call_confirmed(TOOL, apply_to(both_ops_pages()), "alice", "main")
            .await,
    );
    assert_eq!(
        said,
        "Replaced in 1 of 2 pages: 1 replacement.\n\
         - main:Ops.Alpha: not saved: version conflict: it is now at version 1.2, not 1.1; \
         nothing was written to it. Preview again for its new version.\n\
         - main:Ops.Beta: 1 replacement, version 1.1 -> 1.2"
    );
    assert_eq!(
        content(&farm, "Ops.Alpha"),
        "Acme Inc. changed by someone.\n"
    );
    assert_eq!(content(&farm, "Ops.Beta"), "Bought from Acme Corp.\n");
}

#[backend_test]
async fn one_question_covers_every_page_and_a_decline_writes_nothing() {
    let farm = farm();
    let declined = farm
        .caller("alice", "main")
        .answering(Answer::Declined)
        .call(TOOL, apply_to(both_ops_pages()))
        .await;
    assert!(declined.expect_error().contains("declined"));
    let [question] = declined.questions() else {
        panic!("expected one question, got {:?}", declined.questions());
    };
    assert!(
        question.contains("main:Ops.Alpha") && question.contains("main:Ops.Beta"),
        "{question}"
    );
    assert_eq!(
        content(&farm, "Ops.Alpha"),
        "Acme Inc. ships.\nAsk Acme Inc. first.\n"
    );
    assert_eq!(content(&farm, "Ops.Beta"), "Bought from Acme Inc.\n");

    let accepted = farm
        .caller("alice", "main")
        .answering(Answer::Accepted)
        .call(TOOL, apply_to(both_ops_pages()))
        .await;
    assert!(
        accepted
            .expect_text()
            .starts_with("Replaced in 2 of 2 pages")
    );
    assert_eq!(accepted.questions().len(), 1);
    assert_eq!(content(&farm, "Ops.Beta"), "Bought from Acme Corp.\n");
}

#[backend_test]
async fn pages_the_caller_cannot_edit_are_refused_and_never_written() {
    let farm = farm();
    // bob views main and Secret but edits nothing: every page is listed (in title order), as
    // refused.
    let said = text(farm.call(TOOL, preview_of_acme(), "bob", "main").await);
    assert_eq!(
        said,
        "Preview, nothing written: 3 pages of the 4 selected pages read contain the text; 0 \
         replacements in the 0 pages you may edit.\n\
         - main:Secret.Acme (version 1.1): 1 replacement; refused: you may view it but not edit it\n\
         - main:Ops.Alpha (version 1.1): 2 replacements; refused: you may view it but not edit it\n\
         - main:Ops.Beta (version 1.1): 1 replacement; refused: you may view it but not edit it"
    );
    let refused = error(
        farm.call(TOOL, apply_to(both_ops_pages()), "bob", "main")
            .await,
    );
    assert!(
        refused.contains("- main:Ops.Alpha: not saved: You do not have permission to edit"),
        "{refused}"
    );
    assert_eq!(content(&farm, "Ops.Beta"), "Bought from Acme Inc.\n");
    // alice cannot view Secret: naming it answers as any page she cannot view.
    let pages = json!([
        {"reference": "Secret.Acme", "base_version": "1.1"},
        {"reference": "Secret.Nothing", "base_version": "1.1"}
    ]);
    let hidden = error(farm.call(TOOL, apply_to(pages), "alice", "main").await);
    assert_eq!(
        hidden,
        "Replaced in 0 of 2 pages: 0 replacements.\n\
         - Secret.Acme: not saved: You do not have permission to view \"main:Secret.Acme\".\n\
         - Secret.Nothing: not saved: You do not have permission to view \"main:Secret.Nothing\"."
    );
    assert_eq!(content(&farm, "Secret.Acme"), "Acme Inc. secret.\n");
    let offered = error(farm.call(TOOL, preview_of_acme(), GUEST, "main").await);
    assert!(offered.contains("guests cannot"), "{offered}");
}

#[backend_test]
async fn arguments_that_do_not_fit_the_mode_are_refused() {
    let farm = farm();
    for (arguments, says) in [
        (
            json!({"find": "Acme Inc.", "replace": "x"}),
            "Error: give 'query'",
        ),
        (
            json!({"find": "", "replace": "x", "query": "Acme"}),
            "Error: 'find' is empty",
        ),
        (
            json!({"find": "Acme", "replace": "Acme", "query": "Acme"}),
            "Error: 'find' and 'replace' are the same text",
        ),
        (
            json!({"find": "Acme Inc.", "replace": "x", "query": "Acme", "comment": "why"}),
            "Error: 'comment' and 'major' apply to saves",
        ),
        (
            json!({"find": "Acme Inc.", "replace": "x", "query": "Acme",
                   "pages": [{"reference": "Ops.Beta", "base_version": "1.1"}]}),
            "Error: 'query', 'space' and 'offset' select pages for a preview",
        ),
        (
            json!({"find": "Acme Inc.", "replace": "x",
                   "pages": [{"reference": "Ops.Beta", "base_version": "latest"}]}),
            "Error: page 1: 'base_version' must be a version",
        ),
    ] {
        let refused = error(farm.call(TOOL, arguments, "alice", "main").await);
        assert!(refused.starts_with(says), "{refused}");
    }
    assert_eq!(content(&farm, "Ops.Beta"), "Bought from Acme Inc.\n");
}
