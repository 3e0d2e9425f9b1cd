//! Stored links: outgoing per row, backlinks across the farm.

use wiki_store::model::document::DocumentSave;
use wiki_store::model::link::LinkTarget;
use wiki_store::model::locale::Locale;
use wiki_store::model::search::WikiScope;
use wiki_store::model::wiki::WikiId;
use wiki_store::testing::backend_test;

use crate::harness::{Fixture, put, reference};

#[backend_test]
fn outgoing_links_are_stored_per_row_in_authored_order(db: &Fixture) {
    let store = db.store();
    put(
        &*store,
        "Hub.Home",
        "",
        "[b](Hub.B) [a](Hub.A) ![img](attach:logo.png) [ext](https://x.org)",
    );
    let links = store
        .outgoing_links(&reference("Hub.Home"), None)
        .unwrap()
        .unwrap();
    assert_eq!(
        links,
        vec![
            LinkTarget::Document(reference("Hub.B")),
            LinkTarget::Document(reference("Hub.A")),
            LinkTarget::Attachment {
                document: reference("Hub.Home"),
                name: "logo.png".into()
            },
        ]
    );
    let fr = Locale::parse("fr").unwrap();
    store
        .save_document(
            &DocumentSave::new(reference("Hub.Home"), "[c](Hub.C)", "a").locale(fr.clone()),
        )
        .unwrap();
    assert_eq!(
        store
            .outgoing_links(&reference("Hub.Home"), Some(&fr))
            .unwrap()
            .unwrap(),
        vec![LinkTarget::Document(reference("Hub.C"))]
    );
    put(&*store, "Hub.Home", "", "no links now");
    assert_eq!(
        store
            .outgoing_links(&reference("Hub.Home"), None)
            .unwrap()
            .unwrap(),
        vec![]
    );
    assert_eq!(
        store
            .outgoing_links(&reference("Hub.Missing"), None)
            .unwrap(),
        None
    );
}

#[backend_test]
fn backlinks_are_locale_free_sorted_scoped_and_allow_broken_targets(db: &Fixture) {
    let store = db.store();
    let dev = WikiId::new("dev").unwrap();
    store.create_wiki(&dev, "Dev").unwrap();
    put(&*store, "Z.Source", "", "[t](Target.Page)");
    put(
        &*store,
        "A.Source",
        "",
        "[t](Target.Page) [again](main:Target.Page)",
    );
    store
        .save_document(
            &DocumentSave::new(reference("A.Hidden"), "[t](Target.Page)", "a").hidden(true),
        )
        .unwrap();
    let fr = Locale::parse("fr").unwrap();
    store
        .save_document(
            &DocumentSave::new(reference("Z.Source"), "[t](Target.Page)", "a").locale(fr),
        )
        .unwrap();
    store
        .save_document(&DocumentSave::new(
            reference("dev:Dev.Source"),
            "[t](main:Target.Page)",
            "a",
        ))
        .unwrap();
    put(
        &*store,
        "B.Other",
        "",
        "[t](Target.Else) [file](attach:Target.Page@x.pdf)",
    );

    let target = reference("Target.Page");
    let all = store.backlinks(&target, &WikiScope::All, 100).unwrap();
    let sources: Vec<String> = all.backlinks.iter().map(|b| b.source.to_string()).collect();
    assert_eq!(
        sources,
        [
            "dev:Dev.Source",
            "main:A.Hidden",
            "main:A.Source",
            "main:Z.Source"
        ]
    );
    assert!(all.backlinks[1].hidden);
    assert!(!all.truncated);

    let main_only = store
        .backlinks(&target, &WikiScope::Only(vec![WikiId::main()]), 2)
        .unwrap();
    assert_eq!(main_only.backlinks.len(), 2);
    assert!(main_only.truncated);
    assert!(
        store
            .backlinks(&target, &WikiScope::Only(vec![]), 10)
            .unwrap()
            .backlinks
            .is_empty()
    );
}
