//! The harness itself: calls really go through the middleware (parsing, refusals, audit), and
//! `refused_and_unchanged` fails on an accepted call, other words, or any write.

use std::panic::AssertUnwindSafe;
use std::pin::pin;
use std::sync::Arc;
use std::task::Poll;
use wiki_store::testing::backend_test;

use serde_json::json;

use crate::harness::unchanged::Says::{Contains, EndsWith, Exactly};
use crate::harness::{Farm, GUEST};

#[backend_test]
async fn calls_go_through_the_manager_and_the_middleware() {
    let farm = Farm::new();
    let catalog = farm.call("man", json!({}), "alice", "main").await;
    assert!(catalog.is_ok_and(|text| text.starts_with("Available tools")));
    // The middleware's parser refuses unknown arguments with the accepted ones.
    let refused = farm.call("man", json!({"bogus": 1}), GUEST, "main").await;
    assert!(
        refused.is_err_and(|text| text.contains("bogus")),
        "unknown argument not refused"
    );
}

/// Runs `check` on this task, catching its panic: the text it panicked with, or `None` when it
/// passed. (Not on a spawned task: a PostgreSQL test's store calls must stay off the runtime's
/// workers, see `wiki_store::testing::run_backend_tests`.)
async fn panic_text(check: impl Future<Output = ()>) -> Option<String> {
    let mut check = pin!(check);
    std::future::poll_fn(|context| {
        match std::panic::catch_unwind(AssertUnwindSafe(|| check.as_mut().poll(context))) {
            Ok(Poll::Ready(())) => Poll::Ready(None),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Some(
                payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| {
                        payload
                            .downcast_ref::<&str>()
                            .map(|text| (*text).to_owned())
                    })
                    .unwrap_or_else(|| format!("{payload:?}")),
            )),
        }
    })
    .await
}

#[backend_test]
async fn refused_and_unchanged_catches_acceptance_other_words_and_writes() {
    let farm = Arc::new(Farm::new());
    let refusal = || async { Err::<String, String>("Error: no. Nothing was saved.".to_owned()) };
    let passes = Arc::clone(&farm);
    let passed = panic_text(async move {
        let text = passes
            .refused_and_unchanged(
                "Sandbox.Notes",
                refusal(),
                &[Contains("no."), EndsWith("saved.")],
            )
            .await;
        assert_eq!(text, "Error: no. Nothing was saved.");
    })
    .await;
    assert_eq!(passed, None);

    let accepts = Arc::clone(&farm);
    let accepted = panic_text(async move {
        let call = async { Ok("Saved.".to_owned()) };
        accepts
            .refused_and_unchanged("Sandbox.Notes", call, &[])
            .await;
    })
    .await;
    assert!(accepted.is_some_and(|text| text.contains("expected a refusal")));

    let words = Arc::clone(&farm);
    let other_words = panic_text(async move {
        let says = [Exactly("Error: no.")];
        words
            .refused_and_unchanged("Sandbox.Notes", refusal(), &says)
            .await;
    })
    .await;
    assert!(other_words.is_some_and(|text| text.contains("does not say Exactly")));

    // A write to the document itself, and one elsewhere (only the change sequence sees it).
    for page in ["Sandbox.Notes", "Help.Guide"] {
        let writes = Arc::clone(&farm);
        let wrote = panic_text(async move {
            let call = async {
                writes.save(page, "written anyway\n", "sneaky");
                Err("Error: refused. Nothing was saved.".to_owned())
            };
            writes
                .refused_and_unchanged("Sandbox.Notes", call, &[])
                .await;
        })
        .await;
        assert!(
            wrote.is_some_and(|text| text.contains("the refusal wrote to main:Sandbox.Notes")),
            "a write to {page} went unseen"
        );
    }
}
