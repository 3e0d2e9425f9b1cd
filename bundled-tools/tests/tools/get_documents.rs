//! get_documents through the middleware: several pages in one call, each with its header and
//! version, a page that cannot be read reported in its place, one shared budget.

use serde_json::json;
use wiki_store::testing::backend_test;

use crate::harness::{Farm, error, text};

/// The seeded farm with get_documents (and delete_document, to make a deleted page) on `main`.
fn documents_farm() -> Farm {
    let farm = Farm::new();
    farm.configure("main", |config| {
        config.enabled_tools = ["get_documents", "get_document", "delete_document"]
            .iter()
            .map(|t| (*t).to_owned())
            .collect();
    });
    farm
}

#[backend_test]
async fn several_pages_are_read_in_one_call_and_a_missing_one_says_why_in_its_place() {
    let farm = documents_farm();
    let version = farm.save("Sandbox.Short", "one\ntwo", "seed");
    let read = text(
        farm.call(
            "get_documents",
            json!({"documents": [
                {"reference": "Sandbox.Short"},
                {"reference": "Sandbox.Nowhere"},
                {"reference": "Sandbox.Short", "offset": 2},
            ]}),
            "alice",
            "main",
        )
        .await,
    );
    let lines: Vec<&str> = read.lines().collect();
    assert_eq!(
        lines[0],
        format!("=== main:Sandbox.Short · Short · version {version} · 2 lines"),
        "{read}"
    );
    assert_eq!(lines[1..3], ["     1\tone", "     2\ttwo"], "{read}");
    assert_eq!(lines[4], "=== Sandbox.Nowhere", "{read}");
    assert!(lines[5].contains("No such document"), "{read}");
    assert!(
        read.ends_with("     2\ttwo\nShowing lines 2-2 of 2."),
        "{read}"
    );
}

#[backend_test]
async fn long_pages_share_the_budget_and_say_where_to_continue() {
    let farm = documents_farm();
    let long: String = (1..=4_000)
        .map(|n| format!("line {n} of a long page\n"))
        .collect();
    farm.save("Sandbox.LongA", &long, "seed");
    farm.save("Sandbox.LongB", &long, "seed");
    farm.save("Sandbox.Tiny", "tiny", "seed");
    let read = text(
        farm.call(
            "get_documents",
            json!({"documents": [
                {"reference": "Sandbox.LongA"},
                {"reference": "Sandbox.Tiny"},
                {"reference": "Sandbox.LongB"},
            ]}),
            "alice",
            "main",
        )
        .await,
    );
    // Both long pages are cut at their share, the short one shown whole.
    assert_eq!(
        read.matches("Output truncated at this document's share")
            .count(),
        2,
        "{read}"
    );
    assert!(read.contains("\n     1\ttiny\n"), "{read}");
    assert!(read.contains("; continue with offset="), "{read}");
    assert!(read.chars().count() <= 24_000, "{}", read.chars().count());
}

#[backend_test]
async fn an_empty_or_too_long_list_is_refused() {
    let farm = documents_farm();
    let none = error(
        farm.call("get_documents", json!({"documents": []}), "alice", "main")
            .await,
    );
    assert!(none.contains("give 1 to 20"), "{none}");
    let many: Vec<_> = (0..21)
        .map(|_| json!({"reference": "Sandbox.WebHome"}))
        .collect();
    let refused = error(
        farm.call("get_documents", json!({"documents": many}), "alice", "main")
            .await,
    );
    assert!(refused.contains("lists 21 documents"), "{refused}");
}
