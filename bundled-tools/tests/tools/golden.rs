//! Golden snapshots of what agents read before they call anything: every wiki's `tools/list`
//! (as a user and as the guest, with cross-wiki reach on and off) and every `man` page, with
//! every bundled tool enabled. The files are committed under `tests/golden/`, so a schema,
//! description or manual change is a reviewable diff; after an intended one, regenerate them:
//!
//! ```text
//! BLESS=1 cargo test -p bundled-tools --test tools golden
//! ```

use serde_json::json;
use wiki_server::testing::golden::Golden;
use wiki_store::testing::backend_test;

use crate::harness::{Farm, GUEST};

/// The id of every tool linked into this test binary.
fn linked_ids(farm: &Farm) -> Vec<String> {
    let registry = farm.test_farm().manager().registry();
    registry
        .tools()
        .iter()
        .map(|tool| tool.id().to_owned())
        .collect()
}

/// Enables every linked tool on `main` and `sub`.
fn everything_enabled() -> Farm {
    let farm = Farm::new();
    let ids = linked_ids(&farm);
    for wiki in ["main", "sub"] {
        farm.configure(wiki, |config| config.enabled_tools = ids.clone());
    }
    farm
}

fn golden() -> Golden {
    Golden::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden"))
}

#[backend_test]
async fn golden_tools_list_and_man_pages_have_not_drifted() {
    let farm = everything_enabled();
    let mut golden = golden();

    for (reach, granted) in [("reach", &["main", "sub"][..]), ("no-reach", &[][..])] {
        farm.grant_reach(granted);
        for wiki in ["main", "sub"] {
            for (who, user) in [("user", "alice"), ("guest", GUEST)] {
                let listed = farm
                    .caller(user, wiki)
                    .tools_list()
                    .await
                    .unwrap_or_else(|error| panic!("tools/list on {wiki}: {}", error.message));
                let json = serde_json::to_string_pretty(&listed)
                    .unwrap_or_else(|error| panic!("tools/list as JSON: {error}"));
                golden.check(&format!("tools-list.{wiki}.{who}.{reach}.json"), &json);
            }
        }
    }

    // The manual as alice reads it on main with reach: every tool and reference page, the
    // catalog, and the guest's catalog (no write tool in it).
    farm.grant_reach(&["main", "sub"]);
    let alice = farm.caller("alice", "main");
    let catalog = alice.call("man", json!({})).await.expect_text();
    golden.check("man.txt", &catalog);
    let guest_catalog = farm
        .caller(GUEST, "main")
        .call("man", json!({}))
        .await
        .expect_text();
    golden.check("man.guest.txt", &guest_catalog);
    let mut pages = linked_ids(&farm);
    pages.push("markdown-syntax".to_owned());
    for page in pages {
        let text = alice
            .call("man", json!({ "tool": page }))
            .await
            .expect_text();
        golden.check(&format!("man.{page}.txt"), &text);
    }
    golden.finish();
}

/// The snapshot check itself: a drifted, a missing and a stale file each fail, naming the file
/// and the way to accept the change.
#[backend_test(only = "sqlite")]
fn golden_fails_on_drift_missing_and_stale_files() {
    let temp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let dir = temp.path().to_path_buf();
    std::fs::write(dir.join("kept.txt"), "same\n").unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("drifted.txt"), "old line\n").unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("stale.txt"), "gone\n").unwrap_or_else(|e| panic!("{e}"));
    let failure = std::panic::catch_unwind(|| {
        let mut golden = Golden::with_bless(&dir, false);
        golden.check("kept.txt", "same\n");
        golden.check("drifted.txt", "new line\n");
        golden.check("missing.txt", "fresh\n");
        golden.finish();
    });
    let payload = failure.err().unwrap_or_else(|| panic!("drift went unseen"));
    let report = payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    for expected in [
        "3 snapshot(s)",
        "drifted.txt changed",
        "-old line",
        "+new line",
        "missing.txt is missing",
        "stale.txt matches no output any more",
        "BLESS=1",
    ] {
        assert!(report.contains(expected), "no {expected:?} in:\n{report}");
    }
    assert!(!report.contains("kept.txt"), "{report}");

    let clean = std::panic::catch_unwind(|| {
        let mut golden = Golden::with_bless(&dir, false);
        golden.check("kept.txt", "same\n");
        golden.check("drifted.txt", "old line\n");
        golden.check("stale.txt", "gone\n");
        golden.finish();
    });
    assert!(clean.is_ok(), "an unchanged set of snapshots failed");
}
