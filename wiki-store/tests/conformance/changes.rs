//! Change events and the persistent change sequence.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use wiki_store::model::change::{ChangeEvent, ChangeKind};
use wiki_store::model::document::DocumentSave;
use wiki_store::model::wiki::WikiId;
use wiki_store::testing::backend_test;

use crate::harness::{Fixture, count_events, put, reference};

#[backend_test]
fn saves_reach_subscribers_after_commit_and_unsubscribing_stops_them(db: &Fixture) {
    let store = db.store();
    let seen: Arc<Mutex<Vec<ChangeEvent>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let subscription = store.subscribe(Arc::new(move |event: &ChangeEvent| {
        sink.lock().unwrap().push(event.clone())
    }));
    put(&*store, "Ev.Page", "", "one");
    put(&*store, "Ev.Page", "", "one");
    let events = seen.lock().unwrap().clone();
    assert_eq!(events.len(), 1, "a no-op save emits nothing: {events:?}");
    assert_eq!(events[0].wiki, WikiId::main());
    assert!(
        matches!(&events[0].kind, ChangeKind::DocumentSaved { reference: r, locale: None, version }
        if *r == reference("Ev.Page") && version.to_string() == "1.1")
    );
    assert_eq!(events[0].seq, store.change_seq().unwrap());

    drop(subscription);
    put(&*store, "Ev.Page", "", "two");
    assert_eq!(seen.lock().unwrap().len(), 1);
}

#[backend_test]
fn failed_writes_emit_nothing_and_leave_the_sequence(db: &Fixture) {
    let store = db.store();
    let (_subscription, seen) = count_events(&*store);
    let before = store.change_seq().unwrap();
    let bad = DocumentSave::new(reference("nowhere:X.Y"), "x", "a");
    assert!(store.save_document(&bad).is_err());
    assert_eq!(store.change_seq().unwrap(), before);
    assert_eq!(*seen.lock().unwrap(), 0);
}

#[backend_test]
fn another_process_sees_the_sequence_advance(db: &Fixture) {
    let store = db.store();
    // A second store on the same files stands for another process: it shares nothing in memory.
    let other = db.reopen();
    let start = other.change_seq().unwrap();
    put(&*store, "Seq.A", "", "a");
    store
        .create_wiki(&WikiId::new("w2").unwrap(), "W2")
        .unwrap();
    assert_eq!(other.change_seq().unwrap(), start + 2);
}

#[backend_test]
fn the_commit_marker_moves_with_own_commits_and_not_with_reads(db: &Fixture) {
    let store = db.store();
    let other = db.reopen();
    let quiet = store.commit_marker().unwrap();
    // Reads, here and through another store, commit nothing.
    assert_eq!(store.change_seq().unwrap(), other.change_seq().unwrap());
    assert_eq!(store.commit_marker().unwrap(), quiet);

    put(&*store, "Marker.A", "", "a");
    let after_own = store.commit_marker().unwrap();
    assert_ne!(after_own, quiet);
    assert_eq!(store.commit_marker().unwrap(), after_own);
}

#[backend_test]
fn another_process_commit_moves_the_commit_marker_within_a_second(db: &Fixture) {
    let store = db.store();
    let other = db.reopen();
    for round in 0..3 {
        let before = store.commit_marker().unwrap();
        let seq = store.change_seq().unwrap();
        put(
            &*other,
            &format!("Marker.Other{round}"),
            "",
            "written elsewhere",
        );
        let deadline = Instant::now() + Duration::from_secs(1);
        while store.commit_marker().unwrap() == before {
            assert!(
                Instant::now() < deadline,
                "round {round}: another process's commit left the marker for a second"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(
            store.change_seq().unwrap() > seq,
            "and the sequence tells what changed"
        );
        assert!(
            store
                .document(&reference(&format!("Marker.Other{round}")), None)
                .unwrap()
                .is_some(),
            "the commit is readable here at once"
        );
    }
}

#[backend_test]
fn the_generator_writes_through_the_store_traits(db: &Fixture) {
    let store = db.store();
    let spec = wiki_store::generate::SyntheticWiki {
        pages: 3,
        top_spaces: 1,
        nested_spaces: 0,
        ..Default::default()
    };
    let before = store.change_seq().unwrap();
    assert_eq!(
        wiki_store::generate::generate(&*store, &spec, "gen").unwrap(),
        4
    );
    assert!(store.change_seq().unwrap() > before);
}

#[backend_test]
fn a_panic_inside_an_authorization_callback_leaves_the_store_usable(db: &Fixture) {
    use wiki_store::model::search::{SearchQuery, WikiScope};
    let store = db.open_with(wiki_store::StoreConfig {
        pool_size: 1,
        ..Default::default()
    });
    put(&*store, "Panic.Page", "", "words");
    let query = SearchQuery::new(Some("words".into()), WikiScope::All);
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        store.search(&query, &mut |_| panic!("callback failure"))
    }));
    assert!(outcome.is_err());
    assert_eq!(store.search(&query, &mut |_| true).unwrap().total, 1);
    assert!(
        store
            .document(&reference("Panic.Page"), None)
            .unwrap()
            .is_some()
    );
}
