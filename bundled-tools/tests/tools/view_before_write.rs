//! The write door's first rule, through every bundled write tool: a caller who may edit (or
//! delete) a page but not view it learns nothing about it and changes nothing. On the seeded farm
//! alice may edit all of `main` but only bob may view space `Secret`, so `Secret.Plans` (which
//! exists, with a task object) and `Secret.Missing` (which does not) must answer alice alike:
//! the same text, nothing written, no version, no match count, no echo. Creating a page in that
//! space is refused the same way.

use serde_json::{Value, json};
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::document::DocumentSave;
use wiki_tool_sdk::store::rights::{Effect, Right, RightRule, RightScope, Subject};

use crate::harness::unchanged::Says::Exactly;
use crate::harness::{Farm, TASK_CLASS, ok, reference};

/// Every bundled write tool.
const WRITE_TOOLS: [&str; 8] = [
    "write_document",
    "edit_document",
    "delete_document",
    "write_attachment",
    "delete_attachment",
    "write_object",
    "delete_object",
    "write_schema",
];

/// The seeded farm with every write tool on `main`, where alice may also delete (so
/// delete_document reaches its view check through a right she holds), and bob's secret page
/// holds an attachment.
fn farm() -> Farm {
    let farm = Farm::new();
    farm.configure("main", |config| {
        config.enabled_tools = WRITE_TOOLS.iter().map(|id| (*id).to_owned()).collect();
    });
    ok(farm.store.set_right(&RightRule {
        scope: RightScope::Wiki(wiki_tool_sdk::store::model::wiki::WikiId::main()),
        subject: Subject::User("alice".to_owned()),
        right: Right::Delete,
        effect: Effect::Allow,
    }));
    let plans = reference("Secret.Plans");
    let version = ok(farm.store.document(&plans, None))
        .unwrap_or_else(|| panic!("Secret.Plans missing"))
        .version;
    ok(farm
        .store
        .write_attachment(&wiki_tool_sdk::store::model::attachment::AttachmentWrite {
            reference: plans,
            name: "plan.txt".to_owned(),
            content: b"attack at dawn\n".to_vec(),
            author: "bob".to_owned(),
            comment: "plan".to_owned(),
            expected: wiki_tool_sdk::store::model::document::Expected::Version(version),
        }));
    farm
}

/// The version of `Secret.Plans` as the store holds it (a caller who cannot view it must never
/// learn it, and every probe below uses the right one).
fn secret_version(farm: &Farm) -> String {
    ok(farm.store.document(&reference("Secret.Plans"), None))
        .map(|row| row.version.to_string())
        .unwrap_or_else(|| panic!("Secret.Plans missing"))
}

/// `arguments` aimed at `Secret.Missing` instead of `Secret.Plans`.
fn at_missing(arguments: &Value) -> Value {
    let mut missing = arguments.clone();
    missing["reference"] = json!("Secret.Missing");
    missing
}

/// alice calls `tool` with `arguments` on `Secret.Plans`, then on `Secret.Missing`: both are
/// refused, both write nothing, and both say exactly the view refusal for their page.
async fn answers_as_missing(farm: &Farm, tool: &str, arguments: Value) {
    let existing = farm
        .refuses(
            tool,
            "alice",
            arguments.clone(),
            &[Exactly(
                "You do not have permission to view \"main:Secret.Plans\".",
            )],
        )
        .await;
    let missing = farm
        .refuses(
            tool,
            "alice",
            at_missing(&arguments),
            &[Exactly(
                "You do not have permission to view \"main:Secret.Missing\".",
            )],
        )
        .await;
    assert_eq!(
        existing.replace("Plans", "Missing"),
        missing,
        "{tool} tells an existing page from a missing one"
    );
}

#[backend_test]
async fn an_edit_cannot_echo_a_page_the_caller_cannot_view() {
    let farm = farm();
    // Replacing every line break echoes every line of the page, numbered.
    let arguments = json!({"reference": "Secret.Plans", "edits": [
        {"old_string": "\n", "new_string": "\n ", "replace_all": true}
    ]});
    answers_as_missing(&farm, "edit_document", arguments).await;
}

#[backend_test]
async fn an_edit_cannot_probe_for_a_string() {
    let farm = farm();
    // "not found" against "No changes" (or a count) would say whether the text is there.
    for probe in ["secret plan", "not in the page", "plan"] {
        let arguments = json!({"reference": "Secret.Plans", "edits": [
            {"old_string": probe, "new_string": probe}
        ]});
        answers_as_missing(&farm, "edit_document", arguments).await;
    }
}

#[backend_test]
async fn no_write_tool_tells_the_version_of_a_page_the_caller_cannot_view() {
    let farm = farm();
    // Without base_version an existing row answers "already exists (version X)"; with a wrong
    // one, "Version conflict: ... now at version X".
    for arguments in [
        json!({"reference": "Secret.Plans", "content": "x"}),
        json!({"reference": "Secret.Plans", "content": "x", "base_version": "9.9"}),
    ] {
        answers_as_missing(&farm, "write_document", arguments).await;
    }
    answers_as_missing(
        &farm,
        "edit_document",
        json!({"reference": "Secret.Plans", "base_version": "9.9", "title": "t"}),
    )
    .await;
    for tool in ["delete_document", "write_schema"] {
        let arguments = match tool {
            "delete_document" => json!({"reference": "Secret.Plans", "base_version": "9.9"}),
            _ => json!({"reference": "Secret.Plans", "operation": "add_field", "field": "f",
                        "type": "String"}),
        };
        answers_as_missing(&farm, tool, arguments).await;
    }
}

#[backend_test]
async fn no_write_tool_overwrites_a_page_the_caller_cannot_view() {
    let farm = farm();
    let base = secret_version(&farm);
    // With the right version, every one of these used to be saved.
    let blind = [
        (
            "write_document",
            json!({"reference": "Secret.Plans", "content": "pwned", "base_version": base}),
        ),
        (
            "edit_document",
            json!({"reference": "Secret.Plans", "title": "pwned"}),
        ),
        (
            "write_attachment",
            json!({"reference": "Secret.Plans", "filename": "plan.txt", "content": "pwned",
                   "base_version": base}),
        ),
        (
            "delete_attachment",
            json!({"reference": "Secret.Plans", "filename": "plan.txt", "base_version": base}),
        ),
        (
            "write_object",
            json!({"reference": "Secret.Plans", "class": TASK_CLASS, "object": 0,
                   "fields": {"title": "pwned"}, "base_version": base}),
        ),
        (
            "delete_object",
            json!({"reference": "Secret.Plans", "class": TASK_CLASS, "object": 0,
                   "base_version": base}),
        ),
        (
            "delete_document",
            json!({"reference": "Secret.Plans", "base_version": base}),
        ),
    ];
    for (tool, arguments) in blind {
        answers_as_missing(&farm, tool, arguments).await;
    }
    // A class document in a space the caller cannot view: no schema change either.
    let class = DocumentSave::new(reference("Secret.PlanClass"), "", "bob");
    ok(farm.store.save_document(&class));
    farm.refuses(
        "write_schema",
        "alice",
        json!({"reference": "Secret.PlanClass", "operation": "add_field", "field": "goal",
               "type": "String", "base_version": "1.1"}),
        &[Exactly(
            "You do not have permission to view \"main:Secret.PlanClass\".",
        )],
    )
    .await;
}

#[backend_test]
async fn creating_in_a_space_the_caller_cannot_view_is_refused_alike() {
    let farm = farm();
    for (tool, arguments) in [
        (
            "write_document",
            json!({"reference": "Secret.Missing", "content": "new"}),
        ),
        (
            "edit_document",
            json!({"reference": "Secret.Missing", "edits": [{"old_string": "", "new_string": "new"}]}),
        ),
        (
            "write_attachment",
            json!({"reference": "Secret.Missing", "filename": "a.txt", "content": "new"}),
        ),
        (
            "write_object",
            json!({"reference": "Secret.Missing", "class": TASK_CLASS, "fields": {"title": "new"}}),
        ),
    ] {
        farm.refuses(
            tool,
            "alice",
            arguments,
            &[Exactly(
                "You do not have permission to view \"main:Secret.Missing\".",
            )],
        )
        .await;
    }
    // bob, who may view the space but not edit it, is told what he lacks.
    farm.refuses(
        "write_document",
        "bob",
        json!({"reference": "Secret.Missing", "content": "new"}),
        &[Exactly(
            "You do not have permission to edit \"main:Secret.Missing\".",
        )],
    )
    .await;
}
