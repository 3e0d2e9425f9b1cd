//! list_trash through the middleware: the entries of pages the caller may view, newest first,
//! counted after authorization, narrowed to a space, paged with a footer, and structured.

use serde_json::json;
use wiki_store::testing::backend_test;

use crate::harness::{error, ok, text, wiki};
use crate::restore_document::{bin_farm, delete};

#[backend_test]
async fn entries_come_newest_first_paged_and_narrowed_to_a_space() {
    let farm = bin_farm();
    let empty = text(farm.call("list_trash", json!({}), "alice", "main").await);
    assert_eq!(empty, "The recycle bin of main holds nothing you may view.");
    delete(&farm, "Help.Nested.Deep", "1.1").await;
    delete(&farm, "Sandbox.Notes", "2.1").await;
    delete(&farm, "Help.Guide", "1.1").await;
    let ids: Vec<i64> = ok(farm.store.trash(&wiki("main")))
        .iter()
        .map(|entry| entry.id.0)
        .collect();
    let [guide, notes, deep] = ids[..] else {
        panic!("three entries expected: {ids:?}");
    };
    let first = text(
        farm.call("list_trash", json!({"limit": 2}), "alice", "main")
            .await,
    );
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(
        lines[0],
        "Recycle bin of main: 3 entries you may view, newest first"
    );
    assert!(
        lines[1].starts_with(&format!("  #{guide} main:Help.Guide: deleted by admin on "))
            && lines[1].ends_with(" at version 1.1 (comment: \"[AI] cleanup\")"),
        "{first}"
    );
    assert!(lines[2].starts_with(&format!("  #{notes} main:Sandbox.Notes: deleted by admin")));
    assert_eq!(
        lines[3],
        "Showing entries 1-2 of 3; continue with offset=2."
    );
    assert_eq!(
        lines[4],
        "restore_document reference=<page> brings a page back (entry=<id> for another entry)."
    );
    let rest = text(
        farm.call(
            "list_trash",
            json!({"limit": 2, "offset": 2}),
            "alice",
            "main",
        )
        .await,
    );
    assert!(
        rest.contains(&format!("#{deep} main:Help.Nested.Deep:")),
        "{rest}"
    );
    assert!(!rest.contains("Showing entries"), "{rest}");
    let help = text(
        farm.call("list_trash", json!({"space": "Help"}), "alice", "main")
            .await,
    );
    assert!(
        help.starts_with("Recycle bin of main in space Help: 2 entries you may view")
            && !help.contains("Sandbox"),
        "{help}"
    );
    let past = error(
        farm.call("list_trash", json!({"offset": 3}), "alice", "main")
            .await,
    );
    assert_eq!(
        past,
        "Error: 'offset' 3 is past the last entry (3 entries). Use an offset below 3."
    );
    let nothing = text(
        farm.call("list_trash", json!({"space": "Tasks"}), "alice", "main")
            .await,
    );
    assert_eq!(
        nothing,
        "The recycle bin of main holds nothing you may view in space Tasks."
    );
}

#[backend_test]
async fn the_listing_is_structured() {
    let farm = bin_farm();
    delete(&farm, "Help.Guide", "1.1").await;
    let result = farm
        .call_result("list_trash", json!({}), "bob", "main")
        .await;
    let value = result.structured_content.unwrap_or_default();
    assert_eq!(value["wiki"], "main");
    assert_eq!(value["total"], 1);
    assert_eq!(value["truncated"], false);
    assert_eq!(value["next_offset"], serde_json::Value::Null);
    let entry = &value["entries"][0];
    assert_eq!(entry["reference"], "main:Help.Guide");
    assert_eq!(entry["version"], "1.1");
    assert_eq!(entry["deleted_by"], "admin");
    assert_eq!(entry["comment"], "[AI] cleanup");
    assert_eq!(entry["attachment"], serde_json::Value::Null);
    assert_eq!(entry["exists_again"], false);
    assert!(entry["entry"].as_u64().is_some(), "{entry}");
}
