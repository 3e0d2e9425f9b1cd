//! edit_document through the middleware: ordered edits saved once, counts and the `@@ edit N @@`
//! echo, every refusal leaving the store untouched, creation by one empty-old_string edit, the
//! optional base_version lock, translations, and 16 agents racing on one version.

use std::sync::Arc;
use wiki_store::testing::backend_test;

use serde_json::{Value, json};

use crate::harness::text;
use crate::harness::unchanged::Says::{Contains, Exactly, StartsWith};
use crate::harness::{Farm, ok, reference};
use crate::write_document::{stored, writable_farm};

const TOOL: &str = "edit_document";

async fn edit(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call(TOOL, arguments, user, "main").await
}

fn content(farm: &Farm, page: &str) -> (String, String) {
    let row = stored(farm, page, None).unwrap_or_else(|| panic!("{page} missing"));
    (row.version.to_string(), row.content)
}

#[backend_test]
async fn edits_apply_in_order_and_save_one_version() {
    let farm = writable_farm();
    let result = text(
        edit(
            &farm,
            json!({"reference": "Help.Guide", "edits": [
                {"old_string": "Intro.", "new_string": "Introduction."},
                {"old_string": "## Use\r\n", "new_string": "## Usage\r\n"},
                {"old_string": "`wiki-mcp serve`", "new_string": "`wiki-mcp serve --public-url`", "replace_all": true}
            ]}),
            "alice",
        )
        .await,
    );
    assert!(
        result.starts_with(
            "Edited document main:Help.Guide.\nVersion: 1.1 -> 1.2\nEdits: 3 applied, 3 replacement(s).\n"
        ),
        "{result}"
    );
    assert!(
        result.contains(
            "@@ edit 1 @@ (1 replacement)\n     1\t# Guide\n     2\t\n     3\tIntroduction.\n"
        ),
        "{result}"
    );
    assert!(result.contains("@@ edit 2 @@ (1 replacement)"), "{result}");
    assert!(result.contains("     9\t## Usage"), "{result}");
    let (version, body) = content(&farm, "Help.Guide");
    assert_eq!(version, "1.2");
    assert_eq!(
        body,
        "# Guide\n\nIntroduction.\n\n## Install\n\nRun `wiki-mcp serve --public-url`.\n\n## Usage\n\nCall man.\n"
    );
    let history = ok(farm.store.history(&reference("Help.Guide"), None, 0, 5));
    let newest = history.and_then(|page| page.revisions.into_iter().next());
    assert_eq!(newest.map(|r| r.comment), Some("[AI] 3 edits".to_owned()));
}

#[backend_test]
async fn every_refusal_names_the_edit_and_saves_nothing() {
    let farm = writable_farm();
    let many: Vec<Value> = (0..101)
        .map(|_| json!({"old_string": "a", "new_string": "b"}))
        .collect();
    for (edits, expected) in [
        (
            json!([{"old_string": "Intro.", "new_string": "x"}, {"old_string": "absent", "new_string": "y"}]),
            StartsWith("Edit 2: old_string not found"),
        ),
        (
            json!([{"old_string": "## ", "new_string": "x"}]),
            StartsWith("Edit 1: old_string found 2 times"),
        ),
        (
            json!([{"old_string": "", "new_string": "appended"}]),
            StartsWith("Edit 1: old_string is empty"),
        ),
        (json!([]), StartsWith("Error: nothing to do")),
        (json!(many), Contains("at most 100")),
        (
            json!([{"old_string": "Intro.", "new_string": "x".repeat(100_001)}]),
            StartsWith("Error: edit 1: new_string is too large"),
        ),
    ] {
        let arguments = json!({"reference": "Help.Guide", "edits": edits});
        farm.refuses(TOOL, "alice", arguments, &[expected]).await;
    }
}

#[backend_test]
async fn creation_takes_one_empty_old_string() {
    let farm = writable_farm();
    let replace =
        json!({"reference": "Sandbox.New", "edits": [{"old_string": "a", "new_string": "b"}]});
    let refused = Contains("does not exist. To create it");
    farm.refuses(TOOL, "alice", replace, &[refused]).await;
    let created = text(
        edit(
            &farm,
            json!({"reference": "Sandbox.New",
                   "edits": [{"old_string": "", "new_string": "# New\r\n"}], "title": "New"}),
            "alice",
        )
        .await,
    );
    assert_eq!(
        created,
        "Created document main:Sandbox.New.\nVersion: 1.1\nTitle set."
    );
    assert_eq!(
        content(&farm, "Sandbox.New"),
        ("1.1".to_owned(), "# New\n".to_owned())
    );
}

#[backend_test]
async fn the_lock_title_and_no_op() {
    let farm = writable_farm();
    let stale = json!({"reference": "Sandbox.Notes", "base_version": "1.4",
                       "edits": [{"old_string": "rewritten", "new_string": "x"}]});
    let conflict = Exactly(
        "Version conflict: the document is now at version 2.1 but base_version is 1.4. \
         Re-read it with get_document and redo your edits against the current text. \
         get_history from=1.4 shows what changed since. Nothing was saved.",
    );
    farm.refuses(TOOL, "alice", stale, &[conflict]).await;
    let retitled = text(
        edit(
            &farm,
            json!({"reference": "Sandbox.Notes", "base_version": "2.1", "title": "Notebook"}),
            "alice",
        )
        .await,
    );
    assert!(
        retitled.starts_with(
            "Edited document main:Sandbox.Notes.\nVersion: 2.1 -> 2.2\nTitle updated."
        ),
        "{retitled}"
    );
    let same = text(
        edit(
            &farm,
            json!({"reference": "Sandbox.Notes",
                   "edits": [{"old_string": "rewritten", "new_string": "rewritten"}]}),
            "alice",
        )
        .await,
    );
    assert!(same.starts_with("No changes: "), "{same}");
    assert_eq!(content(&farm, "Sandbox.Notes").0, "2.2");
}

/// A retry of an edit that succeeded, sent with its base_version: the edits applied to that
/// version give exactly the current text, so it is already applied; without base_version, or
/// once the page moved on further, the usual answers stand. A creation retried is recognised too.
#[backend_test]
async fn a_retry_of_an_edit_that_succeeded_is_already_applied() {
    let farm = writable_farm();
    let send = json!({"reference": "Sandbox.Notes", "base_version": "2.1",
                      "edits": [{"old_string": "rewritten", "new_string": "revised"}]});
    text(edit(&farm, send.clone(), "alice").await);
    let again = text(edit(&farm, send.clone(), "alice").await);
    assert_eq!(
        again,
        "Already applied: the document \"main:Sandbox.Notes\" is at version 2.2 and already \
         holds exactly what you sent (a retry of a write that succeeded). Nothing was saved."
    );
    assert_eq!(content(&farm, "Sandbox.Notes").0, "2.2");
    // Without base_version there is no version to compare with: the edit is tried again.
    farm.refuses(
        TOOL,
        "alice",
        json!({"reference": "Sandbox.Notes",
               "edits": [{"old_string": "rewritten", "new_string": "revised"}]}),
        &[Contains("not found")],
    )
    .await;
    farm.save("Sandbox.Notes", "# Notes\n\nsomeone else\n", "other");
    farm.refuses(
        TOOL,
        "alice",
        send,
        &[StartsWith(
            "Version conflict: the document is now at version 2.3 but base_version is 2.1.",
        )],
    )
    .await;
    let create =
        json!({"reference": "Sandbox.Made", "edits": [{"old_string": "", "new_string": "made\n"}]});
    text(edit(&farm, create.clone(), "alice").await);
    let again = text(edit(&farm, create, "alice").await);
    assert!(
        again.starts_with("Already applied: the document \"main:Sandbox.Made\" is at version 1.1"),
        "{again}"
    );
}

#[backend_test]
async fn translations_are_edited_on_their_own_row() {
    let farm = writable_farm();
    let result = text(
        edit(
            &farm,
            json!({"reference": "Help.Guide", "locale": "fr",
                   "edits": [{"old_string": "Introduction.", "new_string": "Intro en français."}]}),
            "alice",
        )
        .await,
    );
    assert!(
        result.starts_with("Edited translation \"fr\" of main:Help.Guide.\nVersion: 1.1 -> 1.2"),
        "{result}"
    );
    assert_eq!(content(&farm, "Help.Guide").0, "1.1");
}

#[backend_test]
async fn sixteen_agents_on_one_version_one_wins() {
    let farm = Arc::new(writable_farm());
    let mut agents = Vec::new();
    for agent in 0..16 {
        let farm = Arc::clone(&farm);
        agents.push(tokio::spawn(async move {
            farm.call(
                "edit_document",
                json!({"reference": "Sandbox.Notes", "base_version": "2.1",
                       "edits": [{"old_string": "rewritten", "new_string": format!("agent {agent}")}]}),
                "alice",
                "main",
            )
            .await
        }));
    }
    let mut wins = 0;
    let mut conflicts = 0;
    for agent in agents {
        match ok(agent.await) {
            Ok(_) => wins += 1,
            Err(message)
                if message.starts_with(
                    "Version conflict: the document is now at version 2.2 but base_version is 2.1.",
                ) =>
            {
                conflicts += 1;
            }
            Err(other) => panic!("unexpected: {other}"),
        }
    }
    assert_eq!((wins, conflicts), (1, 15));
    let history = ok(farm.store.history(&reference("Sandbox.Notes"), None, 0, 10))
        .unwrap_or_else(|| panic!("history gone"));
    let versions: Vec<String> = history
        .revisions
        .iter()
        .map(|r| r.version.to_string())
        .collect();
    assert_eq!(versions, ["2.2", "2.1", "1.3", "1.2", "1.1"]);
    let (_, body) = content(&farm, "Sandbox.Notes");
    assert!(body.starts_with("# Notes\n\nagent "), "{body}");
}

#[backend_test]
async fn replace_all_is_capped_per_call_and_saves_nothing_past_the_cap() {
    let farm = writable_farm();
    farm.save("Sandbox.Many", &"x\n".repeat(10_001), "many");
    let over = json!({"reference": "Sandbox.Many",
                      "edits": [{"old_string": "x", "new_string": "y", "replace_all": true}]});
    let refused = Exactly(
        "Edit 1: old_string occurs more than 10000 more times, and one call makes at most 10000 \
         replacements (all edits together). Split the change: make old_string longer so it \
         matches fewer places, or edit part of the document per call; or replace the whole \
         content with write_document. Nothing was saved.",
    );
    farm.refuses(TOOL, "alice", over, &[refused]).await;
    farm.save("Sandbox.Many", &"x\n".repeat(10_000), "many");
    let done = text(
        edit(
            &farm,
            json!({"reference": "Sandbox.Many",
                   "edits": [{"old_string": "x", "new_string": "y", "replace_all": true}]}),
            "alice",
        )
        .await,
    );
    assert!(
        done.contains("\nEdits: 1 applied, 10000 replacement(s).\n"),
        "{done}"
    );
    assert!(
        done.contains("\n@@ edit 1 @@ (10000 replacements)\n     1\ty\n"),
        "{done}"
    );
    assert_eq!(content(&farm, "Sandbox.Many").1, "y\n".repeat(10_000));
}

#[backend_test]
async fn a_first_change_longer_than_the_echo_is_still_echoed() {
    let farm = writable_farm();
    let long: String = (1..=300).map(|n| format!("new line {n}\n")).collect();
    let result = text(
        edit(
            &farm,
            json!({"reference": "Help.Guide", "edits": [
                {"old_string": "Intro.\n", "new_string": long},
                {"old_string": "Call man.", "new_string": "Call man first."}
            ]}),
            "alice",
        )
        .await,
    );
    assert!(
        result.contains(
            "\n@@ edit 1 @@ (1 replacement)\n     1\t# Guide\n     2\t\n     3\tnew line 1\n"
        ),
        "{result}"
    );
    assert!(
        result.contains("was cut; read lines ") && result.contains(" with get_document offset="),
        "{result}"
    );
    assert!(result.contains("\n(further changes omitted)"), "{result}");
}
