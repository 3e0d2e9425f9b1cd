//! Markdown directory import and the synthetic wiki generator.

use std::fs;

use wiki_store::StoreError;
use wiki_store::generate::{SyntheticWiki, generate, generate_objects};
use wiki_store::import::{ImportOptions, import_directory, import_directory_with_progress};
use wiki_store::model::link::LinkTarget;
use wiki_store::model::search::{SearchQuery, WikiScope};
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::SpacePath;
use wiki_store::testing::backend_test;

use crate::harness::{Fixture, reference};

fn options() -> ImportOptions {
    ImportOptions {
        wiki: WikiId::main(),
        root: None,
        author: "importer".into(),
        comment: "Imported".into(),
    }
}

#[backend_test]
fn import_reports_progress_file_by_file(db: &Fixture) {
    let store = db.store();
    let source = tempfile::tempdir().unwrap();
    for name in ["a.md", "b.md", "c.md"] {
        fs::write(source.path().join(name), "text\n").unwrap();
    }
    let mut seen = Vec::new();
    let report =
        import_directory_with_progress(&*store, source.path(), &options(), |done, total| {
            seen.push((done, total))
        })
        .unwrap();
    assert_eq!(report.created, 3);
    assert_eq!(seen, [(0, 3), (1, 3), (2, 3), (3, 3)]);
}

#[backend_test]
fn import_maps_folders_to_spaces_and_is_idempotent(db: &Fixture) {
    let store = db.store();
    let source = tempfile::tempdir().unwrap();
    let root = source.path();
    fs::create_dir_all(root.join("Sales/Europe")).unwrap();
    fs::create_dir_all(root.join(".git")).unwrap();
    fs::write(
        root.join("index.md"),
        "---\ntitle: Welcome\n---\nHello [sales](Sales).\n",
    )
    .unwrap();
    fs::write(root.join("Sales/index.md"), "Sales home\r\n").unwrap();
    fs::write(
        root.join("Sales/Europe/france.md"),
        "---\ntitle: 'France'\n---\nBonjour\n",
    )
    .unwrap();
    fs::write(root.join("Sales/notes.txt"), "not markdown").unwrap();
    fs::write(root.join(".git/config.md"), "hidden").unwrap();
    fs::write(root.join("Sales/bad\u{7}name.md"), "control character").unwrap();

    let report = import_directory(&*store, root, &options()).unwrap();
    assert_eq!(
        (report.created, report.updated, report.unchanged),
        (3, 0, 0)
    );
    assert_eq!(report.skipped.len(), 1, "{:?}", report.skipped);

    let home = store
        .document(&reference("Main.WebHome"), None)
        .unwrap()
        .unwrap();
    assert_eq!(home.title, "Welcome");
    assert_eq!(home.content, "Hello [sales](Sales).\n");
    assert_eq!(home.author, "importer");
    let sales = store
        .document(&reference("Sales.WebHome"), None)
        .unwrap()
        .unwrap();
    assert_eq!(sales.content, "Sales home\n", "line endings normalized");
    let france = store
        .document(&reference("Sales.Europe.france"), None)
        .unwrap()
        .unwrap();
    assert_eq!(france.title, "France");
    assert_eq!(
        store
            .outgoing_links(&reference("Main.WebHome"), None)
            .unwrap()
            .unwrap(),
        vec![LinkTarget::Document(reference("Sales.WebHome"))]
    );

    let again = import_directory(&*store, root, &options()).unwrap();
    assert_eq!((again.created, again.updated, again.unchanged), (0, 0, 3));
    assert_eq!(
        store
            .history(&reference("Sales.WebHome"), None, 0, 10)
            .unwrap()
            .unwrap()
            .total,
        1
    );

    fs::write(root.join("Sales/index.md"), "Sales home, edited\n").unwrap();
    let edited = import_directory(&*store, root, &options()).unwrap();
    assert_eq!(
        (edited.created, edited.updated, edited.unchanged),
        (0, 1, 2)
    );

    let under = ImportOptions {
        root: Some(SpacePath::parse("Archive").unwrap()),
        ..options()
    };
    let nested = import_directory(&*store, root, &under).unwrap();
    assert_eq!(nested.created, 3);
    assert!(
        store
            .document(&reference("Archive.Sales.Europe.france"), None)
            .unwrap()
            .is_some()
    );
}

#[backend_test]
fn import_of_a_missing_directory_is_an_io_error(db: &Fixture) {
    let store = db.store();
    let err = import_directory(
        &*store,
        std::path::Path::new("/nonexistent/wiki-store-import"),
        &options(),
    )
    .unwrap_err();
    assert!(matches!(err, StoreError::Io { .. }), "{err:?}");
}

#[backend_test]
fn a_generated_wiki_is_linked_searchable_and_navigable(db: &Fixture) {
    let store = db.store();
    let spec = SyntheticWiki {
        pages: 300,
        top_spaces: 5,
        nested_spaces: 2,
        batch: 100,
        ..SyntheticWiki::default()
    };
    let saved = generate(&*store, &spec, "generator").unwrap();
    assert_eq!(saved, 300 + 5 * 3);
    let spaces = store.top_level_spaces(&WikiId::main(), false).unwrap();
    assert_eq!(spaces.len(), 5);
    assert_eq!(spaces.iter().map(|s| s.pages).sum::<u64>(), 315);
    let links = store
        .outgoing_links(&spec.page(7).unwrap(), None)
        .unwrap()
        .unwrap();
    assert!(!links.is_empty() && links.len() <= 3);
    let query = SearchQuery::new(Some("page7".into()), WikiScope::All);
    let results = store.search(&query, &mut |_| true).unwrap();
    assert_eq!(results.hits[0].candidate.reference, spec.page(7).unwrap());
}

#[backend_test]
fn a_generated_wiki_gets_classes_and_objects(db: &Fixture) {
    let store = db.store();
    let spec = SyntheticWiki {
        pages: 40,
        top_spaces: 2,
        nested_spaces: 1,
        ..SyntheticWiki::default()
    };
    generate(&*store, &spec, "generator").unwrap();
    assert_eq!(
        generate_objects(&*store, &spec, 10, "generator").unwrap(),
        4
    );
    let usage = store.class_usage(&WikiId::main()).unwrap();
    assert_eq!(usage.len(), 2, "{usage:?}");
    let objects = store.objects(&spec.page(0).unwrap()).unwrap();
    assert_eq!(objects.len(), 1);
    assert_eq!(objects[0].values.len(), 7, "{objects:?}");
}
