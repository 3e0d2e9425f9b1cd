//! Vector indexes: entries computed by a caller, kept beside their rows, stale after a save,
//! gone with their row.

use std::time::{Duration, Instant};

use wiki_store::model::document::{DocumentSave, Expected};
use wiki_store::model::locale::Locale;
use wiki_store::model::trash::DocumentDelete;
use wiki_store::model::vector::{VectorEntry, VectorIndex, VectorRow};
use wiki_store::model::wiki::WikiId;
use wiki_store::testing::backend_test;
use wiki_store::{InvalidInput, Store, StoreError};

use crate::harness::{Fixture, count_events, put, reference, v};

fn index() -> VectorIndex {
    VectorIndex::new(WikiId::main(), "model-a")
}

fn entry(key: &str, digest: &str, vector: &[f32]) -> VectorEntry {
    VectorEntry {
        key: key.into(),
        digest: digest.into(),
        text: format!("passage {key}"),
        vector: vector.to_vec(),
    }
}

fn row(page: &str, version: &str, entries: Vec<VectorEntry>) -> VectorRow {
    VectorRow {
        reference: reference(page),
        locale: None,
        version: v(version),
        entries,
    }
}

fn stale(store: &dyn Store, index: &VectorIndex) -> Vec<String> {
    let backlog = store.vector_backlog(index, 100).unwrap();
    let names: Vec<String> = backlog
        .rows
        .iter()
        .map(|row| {
            let locale = row.locale.as_ref().map_or("", Locale::as_str);
            format!("{}:{locale}@{}", row.reference, row.version)
        })
        .collect();
    assert_eq!(backlog.total, names.len() as u64);
    names
}

fn scanned(store: &dyn Store, index: &VectorIndex) -> Vec<(String, String, Vec<f32>)> {
    let mut found = Vec::new();
    store
        .scan_vectors(index, &mut |scanned| {
            found.push((
                scanned.reference.to_string(),
                scanned.entry.key,
                scanned.entry.vector,
            ));
            true
        })
        .unwrap();
    found.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    found
}

#[backend_test]
fn rows_are_stale_until_their_entries_are_stored_for_their_version(db: &Fixture) {
    let store = db.store();
    put(&*store, "Docs.Install", "Install", "Set it up");
    put(&*store, "Docs.Usage", "Usage", "Use it");
    let french = Locale::parse("fr").unwrap();
    store
        .save_document(
            &DocumentSave::new(reference("Docs.Usage"), "Utilisez-le", "alice")
                .locale(french.clone()),
        )
        .unwrap();
    assert_eq!(
        stale(&*store, &index()),
        [
            "main:Docs.Install:@1.1",
            "main:Docs.Usage:@1.1",
            "main:Docs.Usage:fr@1.1"
        ]
    );

    let (_subscription, seen) = count_events(&*store);
    let before = store.change_seq().unwrap();
    let stored = row(
        "Docs.Install",
        "1.1",
        vec![entry("0", "d0", &[1.0, 0.0]), entry("1", "d1", &[0.0, 1.0])],
    );
    assert!(store.put_vector_row(&index(), &stored).unwrap());
    let translation = VectorRow {
        locale: Some(french.clone()),
        ..row("Docs.Usage", "1.1", vec![entry("0", "fr", &[0.5, 0.5])])
    };
    assert!(store.put_vector_row(&index(), &translation).unwrap());
    assert_eq!(stale(&*store, &index()), ["main:Docs.Usage:@1.1"]);
    assert_eq!(
        store.change_seq().unwrap(),
        before,
        "entries are not a change a server caches"
    );
    assert_eq!(*seen.lock().unwrap(), 0);

    assert_eq!(
        db.reopen()
            .vector_row(&index(), &reference("Docs.Install"), None)
            .unwrap(),
        Some(stored),
        "entries read back exactly, from another process too"
    );
    assert_eq!(
        store
            .vector_row(&index(), &reference("Docs.Usage"), Some(&french))
            .unwrap()
            .map(|row| row.entries),
        Some(translation.entries)
    );
    assert_eq!(
        store
            .vector_row(&index(), &reference("Docs.Usage"), None)
            .unwrap(),
        None,
        "exactly the row asked for"
    );
    assert_eq!(
        stale(&*store, &VectorIndex::new(WikiId::main(), "model-b")).len(),
        3,
        "indexes are independent"
    );

    put(&*store, "Docs.Install", "Install", "Set it up, then run it");
    assert_eq!(
        stale(&*store, &index()),
        ["main:Docs.Install:@1.2", "main:Docs.Usage:@1.1"],
        "a save makes the row stale"
    );
    let kept = store
        .vector_row(&index(), &reference("Docs.Install"), None)
        .unwrap()
        .unwrap();
    assert_eq!(
        kept.version,
        v("1.1"),
        "the old entries stay until replaced"
    );
    let replaced = row("Docs.Install", "1.2", vec![entry("0", "d0", &[1.0, 0.0])]);
    assert!(store.put_vector_row(&index(), &replaced).unwrap());
    assert_eq!(
        scanned(&*store, &index()),
        [
            (
                "main:Docs.Install".to_owned(),
                "0".to_owned(),
                vec![1.0, 0.0]
            ),
            ("main:Docs.Usage".to_owned(), "0".to_owned(), vec![0.5, 0.5]),
        ],
        "a put replaces the row's entries"
    );
}

#[backend_test]
fn entries_go_with_their_row_and_their_wiki(db: &Fixture) {
    let store = db.store();
    put(&*store, "Docs.Gone", "Gone", "soon deleted");
    put(&*store, "Docs.Kept", "Kept", "stays");
    for page in ["Docs.Gone", "Docs.Kept"] {
        assert!(
            store
                .put_vector_row(&index(), &row(page, "1.1", vec![entry("0", "d", &[1.0])]))
                .unwrap()
        );
    }
    store
        .delete_document(&DocumentDelete {
            reference: reference("Docs.Gone"),
            author: "bob".into(),
            comment: String::new(),
            expected: Expected::Any,
        })
        .unwrap();
    assert_eq!(scanned(&*store, &index()).len(), 1);
    assert!(
        !store
            .put_vector_row(
                &index(),
                &row("Docs.Gone", "1.1", vec![entry("0", "d", &[1.0])])
            )
            .unwrap(),
        "a deleted row stores nothing"
    );
    assert!(stale(&*store, &index()).is_empty());

    let dev = WikiId::new("dev").unwrap();
    store.create_wiki(&dev, "Dev").unwrap();
    let dev_page = reference("dev:Docs.Page");
    store
        .save_document(&DocumentSave::new(dev_page.clone(), "dev text", "alice"))
        .unwrap();
    let dev_index = VectorIndex::new(dev.clone(), "model-a");
    let dev_row = VectorRow {
        reference: dev_page,
        locale: None,
        version: v("1.1"),
        entries: vec![entry("0", "d", &[1.0])],
    };
    assert!(store.put_vector_row(&dev_index, &dev_row).unwrap());
    assert_eq!(scanned(&*store, &index()).len(), 1, "wikis are apart");
    assert!(
        store.put_vector_row(&index(), &dev_row).is_err(),
        "a row goes to its own wiki's index"
    );
    assert_eq!(store.clear_vectors(&dev_index).unwrap(), 1);
    assert_eq!(stale(&*store, &dev_index).len(), 1, "cleared: stale again");
    assert!(store.put_vector_row(&dev_index, &dev_row).unwrap());
    store.delete_wiki(&dev).unwrap();
    assert!(scanned(&*store, &dev_index).is_empty());
    assert_eq!(scanned(&*store, &index()).len(), 1);
}

#[backend_test]
fn entries_are_checked_before_anything_is_stored(db: &Fixture) {
    let store = db.store();
    put(&*store, "Docs.Page", "Page", "text");
    let refused = |index: &VectorIndex, row: &VectorRow| {
        matches!(
            store.put_vector_row(index, row),
            Err(StoreError::Invalid(InvalidInput::VectorIndex { .. }))
        )
    };
    let mixed = row(
        "Docs.Page",
        "1.1",
        vec![entry("0", "d", &[1.0]), entry("1", "d", &[1.0, 2.0])],
    );
    assert!(refused(&index(), &mixed));
    let not_finite = row("Docs.Page", "1.1", vec![entry("0", "d", &[f32::INFINITY])]);
    assert!(refused(&index(), &not_finite));
    let good = row("Docs.Page", "1.1", vec![entry("0", "d", &[1.0])]);
    assert!(refused(
        &VectorIndex::new(WikiId::main(), "Bad Name"),
        &good
    ));
    assert!(stale(&*store, &index()).len() == 1, "nothing was stored");
    assert!(matches!(
        store.vector_backlog(&VectorIndex::new(WikiId::main(), ""), 10),
        Err(StoreError::Invalid(InvalidInput::VectorIndex { .. }))
    ));
}

#[backend_test]
fn a_backlog_reports_all_but_lists_at_most_the_limit(db: &Fixture) {
    let store = db.store();
    let saves: Vec<DocumentSave> = (0..30)
        .map(|i| DocumentSave::new(reference(&format!("Bulk.P{i:02}")), "x", "alice"))
        .collect();
    store.save_documents(&saves).unwrap();
    let backlog = store.vector_backlog(&index(), 7).unwrap();
    assert_eq!(backlog.total, 30);
    assert_eq!(backlog.rows.len(), 7);
    assert_eq!(
        backlog.rows[0].reference,
        reference("Bulk.P00"),
        "oldest first"
    );
    let mut seen = 0;
    store
        .scan_vectors(&index(), &mut |_| {
            seen += 1;
            true
        })
        .unwrap();
    assert_eq!(seen, 0);
    for i in 0..30 {
        let entries = (0..40)
            .map(|k| entry(&format!("{k:03}"), "d", &[i as f32, k as f32]))
            .collect();
        assert!(
            store
                .put_vector_row(&index(), &row(&format!("Bulk.P{i:02}"), "1.1", entries))
                .unwrap()
        );
    }
    assert_eq!(
        scanned(&*store, &index()).len(),
        1200,
        "a scan pages through everything"
    );
    let mut first = 0;
    store
        .scan_vectors(&index(), &mut |_| {
            first += 1;
            first < 5
        })
        .unwrap();
    assert_eq!(first, 5, "a scan stops when asked");
}

fn written(store: &dyn Store, since: u64, limit: usize) -> (u64, Vec<String>, bool) {
    let changes = store.vector_changes(&index(), since, limit).unwrap();
    let rows = changes
        .rows
        .iter()
        .map(|row| {
            let locale = row.locale.as_ref().map_or("", Locale::as_str);
            format!("{}:{locale}", row.reference)
        })
        .collect();
    (changes.seq, rows, changes.more)
}

/// Another process's view: its commit marker moves within a couple of seconds of `before`.
fn marker_moves(store: &dyn Store, before: u64) -> bool {
    let deadline = Instant::now() + Duration::from_secs(3);
    while Instant::now() < deadline {
        if store.commit_marker().unwrap() != before {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[backend_test]
fn vector_writes_advance_the_vector_sequence_and_another_process_learns_which_rows(db: &Fixture) {
    let (a, b) = (db.store(), db.reopen());
    put(&*a, "Docs.Install", "Install", "Set it up");
    put(&*a, "Docs.Usage", "Usage", "Use it");
    let (_subscription, seen) = count_events(&*a);
    let change_seq = a.change_seq().unwrap();
    let start = b.vector_seq().unwrap();
    assert_eq!(written(&*b, start, 10), (start, vec![], false));

    let marker = b.commit_marker().unwrap();
    assert!(
        a.put_vector_row(
            &index(),
            &row("Docs.Install", "1.1", vec![entry("k", "d", &[1.0])])
        )
        .unwrap()
    );
    assert!(
        marker_moves(&*b, marker),
        "another process's commit marker moves with a vector write"
    );
    let (seq, rows, more) = written(&*b, start, 10);
    assert!(seq > start, "the vector sequence advanced");
    assert_eq!(rows, ["main:Docs.Install:"]);
    assert!(!more);
    assert_eq!(b.vector_seq().unwrap(), seq);
    assert_eq!(written(&*b, seq, 10), (seq, vec![], false), "nothing since");

    // A row written again is listed once, after the other.
    a.put_vector_row(
        &index(),
        &row("Docs.Usage", "1.1", vec![entry("k", "d", &[1.0])]),
    )
    .unwrap();
    a.put_vector_row(
        &index(),
        &row("Docs.Install", "1.1", vec![entry("k", "e", &[0.5])]),
    )
    .unwrap();
    let (later, rows, _) = written(&*b, start, 10);
    assert_eq!(rows, ["main:Docs.Usage:", "main:Docs.Install:"]);
    assert_eq!(
        written(&*b, seq, 10).1,
        rows,
        "both were written after `seq`"
    );
    assert_eq!(
        written(&*b, start, 1),
        (later, vec!["main:Docs.Usage:".to_owned()], true)
    );
    let other = VectorIndex::new(WikiId::main(), "model-b");
    assert!(
        b.vector_changes(&other, start, 10).unwrap().rows.is_empty(),
        "another index's writes are not this one's"
    );

    // A write that stores nothing leaves the sequence; a clear moves it.
    assert!(
        !a.put_vector_row(
            &index(),
            &row("Docs.Gone", "1.1", vec![entry("k", "d", &[1.0])])
        )
        .unwrap()
    );
    assert_eq!(b.vector_seq().unwrap(), later);
    assert_eq!(a.clear_vectors(&index()).unwrap(), 2);
    assert!(b.vector_seq().unwrap() > later, "a clear advances it");
    assert_eq!(a.clear_vectors(&index()).unwrap(), 0);

    assert_eq!(a.change_seq().unwrap(), change_seq, "no change of content");
    assert_eq!(*seen.lock().unwrap(), 0, "no change event");
}
