//! Optimistic concurrency under real contention.

use std::sync::{Arc, Barrier};

use wiki_store::StoreError;
use wiki_store::model::document::{DocumentSave, Expected};
use wiki_store::testing::backend_test;

use crate::harness::{Fixture, put, reference};

#[backend_test]
fn concurrent_writers_with_one_base_version_give_one_winner_and_lose_nothing(db: &Fixture) {
    const WRITERS: usize = 16;
    let store = db.store();
    put(&*store, "Race.Page", "Race", "start");
    let base = store
        .document(&reference("Race.Page"), None)
        .unwrap()
        .unwrap()
        .version;

    // Half the writers share the store's pool, half open their own on the same file, so the
    // compare-and-set is exercised both behind our writer mutex and between SQLite connections.
    let barrier = Arc::new(Barrier::new(WRITERS));
    let handles: Vec<_> = (0..WRITERS)
        .map(|i| {
            let store = if i % 2 == 0 {
                store.clone()
            } else {
                db.reopen()
            };
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                let save = DocumentSave::new(
                    reference("Race.Page"),
                    format!("writer {i}"),
                    format!("w{i}"),
                )
                .expected(Expected::Version(base));
                barrier.wait();
                (i, store.save_document(&save))
            })
        })
        .collect();
    let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();

    let winners: Vec<usize> = results
        .iter()
        .filter(|(_, r)| r.is_ok())
        .map(|(i, _)| *i)
        .collect();
    assert_eq!(winners.len(), 1, "{results:?}");
    for (_, result) in &results {
        if let Err(err) = result {
            assert!(
                matches!(err, StoreError::VersionConflict { expected: Some(e), actual: Some(a) } if *e == base && *a == base.next(false)),
                "{err:?}"
            );
        }
    }
    let doc = store
        .document(&reference("Race.Page"), None)
        .unwrap()
        .unwrap();
    assert_eq!(doc.content, format!("writer {}", winners[0]));
    let history = store
        .history(&reference("Race.Page"), None, 0, 100)
        .unwrap()
        .unwrap();
    assert_eq!(history.total, 2, "the creation and the one winner");
}

#[backend_test]
fn concurrent_unconditional_writers_lose_no_revision(db: &Fixture) {
    const WRITERS: usize = 4;
    const SAVES: usize = 25;
    let store = db.store();
    put(&*store, "Race.Many", "Many", "start");
    let handles: Vec<_> = (0..WRITERS)
        .map(|i| {
            let store = store.clone();
            std::thread::spawn(move || {
                for n in 0..SAVES {
                    let save = DocumentSave::new(reference("Race.Many"), format!("{i}-{n}"), "w");
                    store.save_document(&save).unwrap();
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().unwrap();
    }
    let history = store
        .history(&reference("Race.Many"), None, 0, 1000)
        .unwrap()
        .unwrap();
    assert_eq!(history.total as usize, 1 + WRITERS * SAVES);
    assert_eq!(
        history.current.to_string(),
        format!("1.{}", 1 + WRITERS * SAVES)
    );
}
