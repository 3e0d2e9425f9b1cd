//! Interrupting store work from another thread ([`wiki_store::interrupt`]): what a cancelled
//! or timed-out request relies on. An interrupted write leaves nothing behind, an interrupted
//! scope refuses further statements, and the store serves the next caller normally.

use std::time::{Duration, Instant};

use wiki_store::interrupt::Interrupter;
use wiki_store::model::document::DocumentSave;
use wiki_store::testing::backend_test;
use wiki_store::{Store, StoreError};

use crate::harness::{Fixture, reference};

/// Pages saved in one transaction: enough that the save takes a measurable time.
const BULK_PAGES: usize = 1000;

/// `BULK_PAGES` saves of pages named `{prefix}.Page{n}`.
fn many_saves(prefix: &str) -> Vec<DocumentSave> {
    let body = "Interrupted writes leave nothing behind. ".repeat(200);
    (0..BULK_PAGES)
        .map(|index| {
            DocumentSave::new(
                reference(&format!("{prefix}.Page{index}")),
                format!("{body} [[{prefix}.Page{}]]", index + 1),
                "writer",
            )
        })
        .collect()
}

/// Saves `saves` in one transaction in a scope interrupted from another thread after `delay`.
fn save_interrupted_after(
    store: &dyn Store,
    saves: &[DocumentSave],
    delay: Duration,
) -> wiki_store::Result<usize> {
    let interrupter = Interrupter::new();
    std::thread::scope(|threads| {
        let remote = interrupter.clone();
        threads.spawn(move || {
            std::thread::sleep(delay);
            remote.interrupt();
        });
        let _scope = interrupter.enter();
        store.save_documents(saves).map(|saved| saved.len())
    })
}

#[backend_test]
fn an_interrupted_write_transaction_rolls_back_whole(db: &Fixture) {
    let store = db.store();
    // How long this machine takes for the save, measured on a save of the same size: the
    // interrupt then lands a quarter of the way in, whatever the machine's speed; a run that
    // still finishes first (a noisy neighbour) is retried with an earlier interrupt, a few
    // times, and the case fails if none was interrupted.
    let started = Instant::now();
    store.save_documents(&many_saves("Timed")).unwrap();
    let whole = started.elapsed();
    let mut interrupted = None;
    for attempt in 1..=4u32 {
        let prefix = format!("Bulk{attempt}");
        let delay = whole / 4u32.pow(attempt);
        match save_interrupted_after(&*store, &many_saves(&prefix), delay) {
            Err(StoreError::Interrupted) => {
                interrupted = Some(prefix);
                break;
            }
            Ok(_) => continue,
            Err(other) => panic!("the write failed otherwise: {other}"),
        }
    }
    let Some(prefix) = interrupted else {
        panic!("every save finished before its interrupt (a whole save took {whole:?})");
    };
    for index in [0, BULK_PAGES / 2, BULK_PAGES - 1] {
        let page = reference(&format!("{prefix}.Page{index}"));
        assert!(
            store.document(&page, None).unwrap().is_none(),
            "page {index} of the interrupted write was stored"
        );
    }
    // The writer connection serves the next write (no scope: nothing to interrupt it).
    let after = reference("Bulk.After");
    store
        .save_document(&DocumentSave::new(after.clone(), "after", "writer"))
        .unwrap();
    assert!(store.document(&after, None).unwrap().is_some());
}

#[backend_test]
fn a_fired_scope_refuses_reads_and_writes_before_they_start(db: &Fixture) {
    let store = db.store();
    let page = reference("Main.Kept");
    store
        .save_document(&DocumentSave::new(page.clone(), "kept", "writer"))
        .unwrap();
    let interrupter = Interrupter::new();
    interrupter.interrupt();
    {
        let _scope = interrupter.enter();
        assert!(matches!(
            store.document(&page, None),
            Err(StoreError::Interrupted)
        ));
        let refused = store.save_document(&DocumentSave::new(page.clone(), "changed", "writer"));
        assert!(
            matches!(refused, Err(StoreError::Interrupted)),
            "{refused:?}"
        );
    }
    // Outside the scope, the store answers as before and nothing was changed.
    let stored = store.document(&page, None).unwrap().unwrap();
    assert_eq!(stored.content, "kept");
    // A scope that did not fire changes nothing.
    let quiet = Interrupter::new();
    let _scope = quiet.enter();
    assert!(store.document(&page, None).unwrap().is_some());
}
