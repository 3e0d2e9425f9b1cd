//! get_history through the middleware: list paging, version snapshots, diffs within the budget,
//! translation histories, the strict version gate before any store access, and guarded echoes.

use serde_json::{Value, json};
use wiki_server::ServerSettings;
use wiki_server::http::BaseUrl;
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::attachment::{AttachmentDelete, AttachmentWrite};
use wiki_tool_sdk::store::model::document::{DocumentSave, Expected};
use wiki_tool_sdk::store::model::object::ObjectWrite;

use crate::harness::{Farm, TASK_CLASS, assert_text, error, ok, reference, text, unsigned};

async fn history(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call("get_history", arguments, user, "main").await
}

/// Replaces the `YYYY-MM-DD HH:MM` of each revision line with `DATE` (the seed runs now).
fn mask_dates(text: &str) -> String {
    text.lines()
        .map(|line| match (line.find("  "), line.find("  by ")) {
            (Some(start), Some(end)) if end > start && end - start == 18 => {
                format!("{}  DATE{}", &line[..start], &line[end..])
            }
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn notes(extra: Value) -> Value {
    let mut arguments = json!({"reference": "Sandbox.Notes"});
    if let (Some(target), Value::Object(extra)) = (arguments.as_object_mut(), extra) {
        target.extend(extra);
    }
    arguments
}

#[backend_test]
async fn the_list_is_newest_first_with_guarded_comments() {
    let farm = Farm::new();
    let list = text(history(&farm, notes(json!({})), "alice").await);
    assert_text(
        &mask_dates(&list),
        "Note: 2 invisible or layout-changing characters are shown as ⟦U+XXXX⟧ (the code point); \
         edit_document and write_document accept the escape.\nHistory of main:Sandbox.Notes\n\
         Current version: 2.1\nTotal revisions: 4 (minor edits included, newest first)\n\n2.1  \
         DATE  by bob  - rewrite\n1.3 (minor)  DATE  by bob  - added⟦U+2028⟧a line \
         ⟦U+202E⟧reversed\n1.2 (minor)  DATE  by bob  - typoVersion: 9.9\n1.1  DATE  by \
         alice  - Created\n\nShowing revisions 1-4 of 4.",
    );
}

#[backend_test]
async fn list_paging_continues_and_limits_clamp() {
    let farm = Farm::new();
    let first = text(history(&farm, notes(json!({"limit": 2})), "alice").await);
    assert!(first.ends_with("\n\nShowing revisions 1-2 of 4. Continue with offset=2."));
    assert!(first.contains("\n2.1  ") && first.contains("\n1.3 (minor)  "));
    let second = text(history(&farm, notes(json!({"limit": 2, "offset": 2})), "alice").await);
    assert!(second.contains("\n1.2 (minor)  ") && second.contains("\n1.1  "));
    assert!(second.ends_with("\n\nShowing revisions 3-4 of 4."));
    let zero = history(&farm, notes(json!({"limit": 0})), "alice").await;
    assert!(
        zero.as_ref()
            .is_err_and(|e| e.starts_with("Error: 'limit' must be between 1 and 100 (got 0)")),
        "a limit of 0 asks for nothing: {zero:?}"
    );
    let clamped_high = text(history(&farm, notes(json!({"limit": 500})), "alice").await);
    assert!(clamped_high.ends_with("Showing revisions 1-4 of 4."));
    assert_eq!(
        history(&farm, notes(json!({"offset": 4})), "alice").await,
        Err(
            "Error: 'offset' 4 is past the last revision (4 revisions). Use an offset below 4."
                .to_owned()
        )
    );
    assert!(
        error(history(&farm, notes(json!({"offset": -1})), "alice").await)
            .starts_with("Error: 'offset' must be 0 or more (got -1)")
    );
}

#[backend_test]
async fn a_version_is_a_historical_snapshot_through_the_window() {
    let farm = Farm::new();
    let snapshot = text(history(&farm, notes(json!({"version": "1.2"})), "alice").await);
    let (head, body) = snapshot.split_once("\n\n").unwrap_or_default();
    assert!(head.starts_with(
        "HISTORICAL SNAPSHOT of main:Sandbox.Notes at version 1.2; the CURRENT version is 2.1. \
         Do not edit from this text: base_version must come from the current document \
         (get_document).\nTitle: Notes\nAuthor: bob\nDate: "
    ));
    assert!(head.ends_with("Z\nComment: typoVersion: 9.9"), "{head}");
    assert_text(
        body,
        "     1\tfirst line\n     2\tsecond line, edited\nShowing lines 1-2 of 2.",
    );
    let second = text(
        history(
            &farm,
            notes(json!({"version": "1.2", "offset": 2})),
            "alice",
        )
        .await,
    );
    assert!(second.ends_with("\n     2\tsecond line, edited\nShowing lines 2-2 of 2."));
    assert_eq!(
        history(
            &farm,
            notes(json!({"version": "1.2", "offset": 3})),
            "alice"
        )
        .await,
        Err(
            "Error: offset 3 exceeds the revision 1.2's length (2 lines). Use an offset from 1 \
             to 2."
                .to_owned()
        )
    );
    assert!(
        error(history(&farm, notes(json!({"version": "1.2", "limit": 5})), "alice").await)
            .starts_with("Error: 'limit' is the page size of the revision list")
    );
    assert_eq!(
        history(&farm, notes(json!({"version": "1.9"})), "alice").await,
        Err(
            "Error: main:Sandbox.Notes has no version 1.9. The newest revisions are: 2.1, 1.3, \
             1.2, 1.1 (of 4). Call get_history without versions to list them all."
                .to_owned()
        )
    );
}

#[backend_test]
async fn diffs_are_unified_and_name_both_sides() {
    let farm = Farm::with_settings(
        ServerSettings::default()
            .with_public_url(BaseUrl::parse("https://wiki.example.org").expect("a URL")),
    );
    let diff = farm
        .caller("alice", "main")
        .with_links()
        .call("get_history", notes(json!({"from": "1.1", "to": "1.3"})))
        .await
        .expect_text();
    // The text leaves out the revisions' comments, whose escapes the structured content shows.
    assert_text(
        &unsigned(&diff),
        "Note: 2 invisible or layout-changing characters in the structured content are shown as \
         ⟦U+XXXX⟧ (the code point); edit_document and write_document accept the escape.\n\
         --- main:Sandbox.Notes (v1.1)\n+++ main:Sandbox.Notes (v1.3)\nCompare: \
         https://wiki.example.org/wikis/main/compare/Sandbox/Notes?from=1.1&to=1.3\n@@ -1,2 \
         +1,3 @@\n first line\n-second line\n+second line, edited\n+third line",
    );
    // `to` defaults to the current version.
    let to_current = text(history(&farm, notes(json!({"from": "1.3"})), "alice").await);
    assert!(
        to_current.contains("\n--- main:Sandbox.Notes (v1.3)\n+++ main:Sandbox.Notes (v2.1)\n")
    );
    assert!(to_current.contains("\n+# Notes\n"));
    assert_eq!(
        history(&farm, notes(json!({"from": "2.1", "to": "2.1"})), "alice")
            .await
            .map(|t| { t.lines().last().unwrap_or_default().to_owned() }),
        Ok("No content differences between 2.1 and 2.1.".to_owned())
    );
    assert!(
        error(history(&farm, notes(json!({"from": "1.1", "to": "7.7"})), "alice").await)
            .starts_with("Error: main:Sandbox.Notes has no version 7.7. The newest revisions are:")
    );
}

#[backend_test]
async fn a_title_change_is_shown_guarded() {
    let farm = Farm::new();
    let save = DocumentSave::new(reference("Sandbox.Notes"), "# Notes\n\nrewritten\n", "bob")
        .title("New\ntitle\u{202E}");
    ok(farm.store.save_document(&save));
    let diff = text(history(&farm, notes(json!({"from": "2.1"})), "alice").await);
    assert_text(
        &diff,
        "Note: 1 invisible or layout-changing character is shown as ⟦U+XXXX⟧ (the code point); \
         edit_document and write_document accept the escape.\n--- main:Sandbox.Notes (v2.1)\n+++ \
         main:Sandbox.Notes (v2.2)\nTitle changed: \"Notes\" -> \"Newtitle⟦U+202E⟧\"\nNo content \
         differences between 2.1 and 2.2.",
    );
}

/// Tasks.Task1 (1.1: its object, created by the seed) at 1.2 with the object's title and
/// password changed, and at 1.3 with `plan.txt` (3 bytes) attached.
fn task_with_structure_changes(farm: &Farm) {
    ok(farm.store.write_object(&ObjectWrite {
        reference: reference("Tasks.Task1"),
        class: TASK_CLASS.to_owned(),
        number: Some(0),
        values: [
            ("title".to_owned(), "Write the docs".to_owned()),
            ("secret".to_owned(), "swordfish".to_owned()),
        ]
        .into(),
        title: None,
        author: "alice".to_owned(),
        comment: "retitle".to_owned(),
        major: false,
        expected: Expected::Any,
    }));
    ok(farm.store.write_attachment(&AttachmentWrite {
        reference: reference("Tasks.Task1"),
        name: "plan.txt".to_owned(),
        content: b"abc".to_vec(),
        author: "alice".to_owned(),
        comment: "plan".to_owned(),
        expected: Expected::Any,
    }));
}

#[backend_test]
async fn object_and_attachment_changes_are_listed_never_a_password() {
    let farm = Farm::new();
    task_with_structure_changes(&farm);
    let arguments = json!({"reference": "Tasks.Task1", "from": "1.1", "to": "1.3"});
    let diff = text(history(&farm, arguments.clone(), "alice").await);
    assert_text(
        &diff,
        "--- main:Tasks.Task1 (v1.1)\n+++ main:Tasks.Task1 (v1.3)\nNo text differences between \
         1.1 and 1.3.\nObjects and attachments changed between 1.1 and 1.3:\n  Object \
         Tasks.TaskClass[0] changed\n    secret: password changed (never shown)\n    title: \
         \"Write docs\" -> \"Write the docs\"\n  Attachment plan.txt added (version 1.1, 3 bytes)",
    );
    let called = farm
        .caller("alice", "main")
        .call("get_history", arguments)
        .await;
    let structure = called
        .structured()
        .map(|value| value["structure"].clone())
        .unwrap_or_default();
    assert_eq!(
        structure,
        json!({
            "status": "compared",
            "unrecorded": [],
            "changes_total": 2,
            "changes": [
                {"change": "object_changed", "class": TASK_CLASS, "number": 0,
                 "fields": [
                     {"field": "secret", "password": true},
                     {"field": "title", "password": false, "old": "Write docs",
                      "new": "Write the docs"},
                 ]},
                {"change": "attachment_added", "attachment": "plan.txt", "fields": [],
                 "new": {"version": "1.1", "size": 3}},
            ],
        })
    );
    for secret in ["hunter2", "swordfish", "sha256"] {
        assert!(!diff.contains(secret), "{diff}");
        assert!(!structure.to_string().contains(secret), "{structure}");
    }
}

#[backend_test]
async fn structure_changes_follow_the_text_hunks() {
    let farm = Farm::new();
    task_with_structure_changes(&farm);
    ok(farm.store.save_document(&DocumentSave::new(
        reference("Tasks.Task1"),
        "new text\n",
        "bob",
    )));
    ok(farm.store.delete_attachment(&AttachmentDelete {
        reference: reference("Tasks.Task1"),
        name: "plan.txt".to_owned(),
        author: "bob".to_owned(),
        comment: "gone".to_owned(),
        expected: Expected::Any,
    }));
    let diff = text(
        history(
            &farm,
            json!({"reference": "Tasks.Task1", "from": "1.3", "to": "1.5"}),
            "alice",
        )
        .await,
    );
    assert!(
        diff.contains(
            "\n@@ -0,0 +1 @@\n+new text\nObjects and attachments changed between 1.3 \
                       and 1.5:\n  Attachment plan.txt removed (was version 1.1, 3 bytes)"
        ),
        "{diff}"
    );
    // Only the text changed: the object and the attachment are what they were.
    let text_only = text(
        history(
            &farm,
            json!({"reference": "Tasks.Task1", "from": "1.3", "to": "1.4"}),
            "alice",
        )
        .await,
    );
    assert!(text_only.ends_with("+new text"), "{text_only}");
}

#[backend_test]
async fn version_arguments_are_checked_before_anything_else() {
    let farm = Farm::new();
    for bad in [
        "deleted:3",
        "1.2.3",
        "xar:2.1",
        "",
        "1234567890.1",
        "1.1; DROP TABLE x",
    ] {
        for name in ["version", "from", "to"] {
            // Denied and missing pages alike: the gate answers before the door and the store.
            for page in ["Secret.Plans", "No.Such", "Sandbox.Notes"] {
                let mut arguments = json!({"reference": page});
                if name == "to" {
                    arguments["from"] = json!("1.1");
                }
                arguments[name] = json!(bad);
                let refused = error(history(&farm, arguments, "alice").await);
                assert!(
                    refused.starts_with(&format!(
                        "Error: '{name}' must be a version such as \"1.1\""
                    )),
                    "{name}={bad:?} on {page}: {refused}"
                );
            }
        }
    }
}

#[backend_test]
async fn mode_combinations_are_refused_with_the_fix() {
    let farm = Farm::new();
    let cases = [
        (
            json!({"version": "1.1", "from": "1.1"}),
            "Error: 'version' shows one revision and cannot be combined",
        ),
        (json!({"to": "1.2"}), "Error: 'to' needs 'from'"),
        (
            json!({"from": "1.1", "offset": 1}),
            "Error: offset, limit and column do not apply to a diff",
        ),
        (
            json!({"from": "1.1", "limit": 5}),
            "Error: offset, limit and column do not apply to a diff",
        ),
        (
            json!({"from": "1.1", "column": 5}),
            "Error: offset, limit and column do not apply to a diff",
        ),
        (
            json!({"column": 5}),
            "Error: 'column' applies to version mode (version=...)",
        ),
        (json!({"version": 1.1}), "Error: 'version' must be a string"),
    ];
    for (extra, expected) in cases {
        let refused = error(history(&farm, notes(extra.clone()), "alice").await);
        assert!(refused.starts_with(expected), "{extra}: {refused}");
    }
}

#[backend_test]
async fn a_translation_has_its_own_history() {
    let farm = Farm::new();
    let french = text(
        history(
            &farm,
            json!({"reference": "Help.Guide", "locale": "fr"}),
            "alice",
        )
        .await,
    );
    assert_text(
        &mask_dates(&french),
        "History of main:Help.Guide (fr translation)\nCurrent version: 1.1\nTotal revisions: 1 \
         (minor edits included, newest first)\n\n1.1  DATE  by alice  - Traduit\n\nShowing \
         revisions 1-1 of 1.",
    );
    let snapshot = text(
        history(
            &farm,
            json!({"reference": "Help.Guide", "locale": "fr", "version": "1.1"}),
            "alice",
        )
        .await,
    );
    assert!(
        snapshot
            .starts_with("HISTORICAL SNAPSHOT of main:Help.Guide (fr translation) at version 1.1")
    );
    assert!(snapshot.contains("\n     3\tIntroduction.\n"));
    assert!(
        error(
            history(
                &farm,
                json!({"reference": "Help.Guide", "locale": "it"}),
                "alice"
            )
            .await
        )
        .starts_with(
            "Error: no \"it\" translation of \"main:Help.Guide\". Existing translations: fr."
        )
    );
}

#[backend_test]
async fn doors_apply_denied_and_cross_wiki() {
    let farm = Farm::new();
    assert_eq!(
        history(&farm, json!({"reference": "Secret.Plans"}), "alice").await,
        Err("You do not have permission to view \"main:Secret.Plans\".".to_owned())
    );
    assert!(
        history(&farm, json!({"reference": "Secret.Plans"}), "bob")
            .await
            .is_ok()
    );
    assert_eq!(
        history(&farm, json!({"reference": "No.Such"}), "alice").await,
        Err("No such document: \"main:No.Such\".".to_owned())
    );
    let from_sub = farm
        .call(
            "get_history",
            json!({"reference": "main:Sandbox.Notes"}),
            "alice",
            "sub",
        )
        .await;
    assert!(error(from_sub).contains("cross-wiki reach is not enabled for this endpoint"));
    let to_sub = text(
        history(
            &farm,
            json!({"reference": "Team.Roadmap", "wiki": "sub"}),
            "alice",
        )
        .await,
    );
    assert!(to_sub.starts_with("History of sub:Team.Roadmap\n"));
}

#[backend_test]
async fn hunks_beyond_the_budget_are_dropped_whole() {
    let farm = Farm::new();
    let line = |n: usize, tag: &str| format!("line {n:05} {tag} {}\n", "x".repeat(60));
    let before: String = (0..3_000).map(|n| line(n, "old")).collect();
    let after: String = (0..3_000)
        .map(|n| line(n, if n % 20 == 0 { "new" } else { "old" }))
        .collect();
    farm.save("Big.Diff", &before, "v1");
    farm.save("Big.Diff", &after, "v2");
    let diff = text(
        history(
            &farm,
            json!({"reference": "Big.Diff", "from": "1.1", "to": "1.2"}),
            "alice",
        )
        .await,
    );
    let note = diff.lines().last().unwrap_or_default();
    assert!(
        note.starts_with("[")
            && note.contains("more hunk(s) not shown: the diff exceeds the ~6000-token cap"),
        "{note}"
    );
    assert!(diff.chars().count() < 24_000 + 400);
    // Every hunk shown is whole: it ends with its trailing context line.
    let body = diff
        .rsplit_once("\n[")
        .map(|(body, _)| body)
        .unwrap_or_default();
    let shown = body.matches("\n@@ -").count();
    assert!(shown > 1 && shown < 150, "{shown} hunks shown");
    let last_hunk_line = body.lines().last().unwrap_or_default();
    assert!(
        last_hunk_line.starts_with(" line ") && last_hunk_line.contains(" old "),
        "{last_hunk_line}"
    );
}

#[backend_test]
async fn an_oversized_first_hunk_is_cut_with_its_own_note() {
    let farm = Farm::new();
    let long: String = (0..2_000)
        .map(|n| format!("{n} {}\n", "y".repeat(50)))
        .collect();
    farm.save("Big.Rewrite", "short\n", "v1");
    farm.save("Big.Rewrite", &long, "v2");
    let diff = text(
        history(
            &farm,
            json!({"reference": "Big.Rewrite", "from": "1.1"}),
            "alice",
        )
        .await,
    );
    let note = diff.lines().last().unwrap_or_default();
    assert!(
        note.starts_with("[The first hunk was cut at the ~6000-token cap after ")
            && note.contains(" of 2002 lines. Read the versions whole: get_history version=\"1.1\" and version=\"1.2\""),
        "{note}"
    );
    assert!(diff.chars().count() < 24_000 + 400);
}

#[backend_test]
async fn the_manual_page_documents_the_modes() {
    let farm = Farm::new();
    let page = text(
        farm.call("man", json!({"tool": "get_history"}), "alice", "main")
            .await,
    );
    assert!(page.starts_with("NAME\n    get_history - Read a document's revision history"));
    for part in [
        "\nNOTES\n",
        "HISTORICAL SNAPSHOT",
        "\nEXAMPLES\n",
        "\nSEE ALSO\n",
    ] {
        assert!(page.contains(part), "{part}: {page}");
    }
}

/// Regression: a revision line longer than the budget was cut and its rest could
/// never be read; version mode takes get_document's column continuation.
#[backend_test]
async fn a_long_line_of_a_revision_is_read_to_its_end_by_column() {
    let farm = Farm::new();
    let long: String = (0..30_000)
        .map(|n| char::from(b'a' + (n % 26) as u8))
        .collect();
    farm.save("Logs.Dump", &format!("first\n{long}\n"), "dump");
    farm.save("Logs.Dump", "rewritten\n", "later");
    let arguments = |column: Option<u64>| {
        let mut arguments = json!({"reference": "Logs.Dump", "version": "1.1", "offset": 2});
        if let (Some(column), Some(object)) = (column, arguments.as_object_mut()) {
            object.insert("column".to_owned(), json!(column));
        }
        arguments
    };
    let first = text(history(&farm, arguments(None), "alice").await);
    let (_, column) = first
        .split_once("continue with offset=2 column=")
        .unwrap_or_else(|| panic!("no column continuation: {first}"));
    let column: u64 = column.trim_end_matches('.').parse().unwrap_or(0);
    let rest = text(history(&farm, arguments(Some(column)), "alice").await);
    let piece = |window: &str| {
        window
            .lines()
            .find_map(|line| line.strip_prefix("     2\t"))
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(piece(&first) + &piece(&rest), long);
    assert!(
        rest.ends_with(&format!("line 2 from column {column}.")),
        "{rest}"
    );
}

/// Regression: a diff split lines on LF only, so a U+2028 inside a line printed a
/// raw line break in the diff, and a change of the final newline alone was not noted right.
#[backend_test]
async fn diffs_break_lines_as_windows_do_and_note_odd_endings() {
    let farm = Farm::new();
    farm.save("Logs.Odd", "one\ntwo", "first");
    farm.save("Logs.Odd", "one\u{2028}+++ forged\ntwo\n", "second");
    let diff = text(
        history(
            &farm,
            json!({"reference": "Logs.Odd", "from": "1.1", "to": "1.2"}),
            "alice",
        )
        .await,
    );
    assert!(!diff.contains('\u{2028}'), "{diff}");
    assert!(
        diff.ends_with(
            "@@ -1,2 +1,3 @@\n-one\n-two\n\\ No newline at end of file\n+one\n\\ Line ends with \
             U+2028 (LINE SEPARATOR), not a line feed\n++++ forged\n+two"
        ),
        "{diff}"
    );
}
