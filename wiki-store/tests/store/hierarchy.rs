//! Tree queries.

use wiki_store::model::document::DocumentSave;
use wiki_store::model::locale::Locale;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::SpacePath;
use wiki_store::{DocumentStore, HierarchyStore};

use crate::harness::{put, reference, store};

fn seed(store: &wiki_store::SqliteStore) {
    put(store, "Sales.WebHome", "Sales Home", "");
    put(store, "Sales.Q1", "First quarter", "");
    put(store, "Sales.Europe.WebHome", "Europe", "");
    put(store, "Sales.Europe.France", "France", "");
    put(store, "Sales.Asia.Japan", "Japan", "");
    store
        .save_document(&DocumentSave::new(reference("Sales.Internal"), "", "a").hidden(true))
        .unwrap();
    store
        .save_document(&DocumentSave::new(reference("Hidden.WebHome"), "", "a").hidden(true))
        .unwrap();
    put(store, "Archive.Old", "Old", "");
    let fr = Locale::parse("fr").unwrap();
    store
        .save_document(&DocumentSave::new(reference("Sales.Q1"), "", "a").locale(fr))
        .unwrap();
}

#[test]
fn top_level_spaces_count_pages_and_hidden_pages() {
    let (_dir, store) = store();
    seed(&store);
    let spaces = store.top_level_spaces(&WikiId::main(), false).unwrap();
    let lines: Vec<String> = spaces
        .iter()
        .map(|s| {
            format!(
                "{} {}+{} {:?}",
                s.space,
                s.pages,
                s.hidden_pages,
                s.home_title.as_deref()
            )
        })
        .collect();
    assert_eq!(
        lines,
        ["Archive 1+0 None", "Sales 5+1 Some(\"Sales Home\")"],
        "translations are not pages"
    );
    assert!(spaces[1].last_modified.is_some());
    let with_hidden = store.top_level_spaces(&WikiId::main(), true).unwrap();
    assert_eq!(with_hidden.len(), 3);
}

#[test]
fn children_of_a_space_home_are_its_pages_and_nested_spaces() {
    let (_dir, store) = store();
    seed(&store);
    let page = store
        .children(&reference("Sales.WebHome"), false, 0, 10)
        .unwrap();
    let names: Vec<String> = page
        .nodes
        .iter()
        .map(|n| {
            format!(
                "{} {:?} {}",
                n.reference.local(),
                n.title.as_deref(),
                n.has_children
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            "Sales.Asia.WebHome None true",
            "Sales.Europe.WebHome Some(\"Europe\") true",
            "Sales.Q1 Some(\"First quarter\") false",
        ]
    );
    assert_eq!(page.total, 3);
    assert_eq!(
        store
            .children(&reference("Sales.WebHome"), true, 0, 10)
            .unwrap()
            .total,
        4
    );
    let second = store
        .children(&reference("Sales.WebHome"), false, 1, 1)
        .unwrap();
    assert_eq!(second.nodes[0].reference.local(), "Sales.Europe.WebHome");
    assert_eq!(second.total, 3);
    assert_eq!(
        store
            .children(&reference("Sales.Q1"), true, 0, 10)
            .unwrap()
            .total,
        0,
        "a terminal page"
    );
    let europe = store
        .children(&reference("Sales.Europe.WebHome"), false, 0, 10)
        .unwrap();
    assert_eq!(europe.nodes[0].reference.local(), "Sales.Europe.France");
}

#[test]
fn pages_list_rows_under_a_space_in_reference_order() {
    let (_dir, store) = store();
    seed(&store);
    let sales = SpacePath::parse("Sales").unwrap();
    let pages = store
        .pages(&WikiId::main(), Some(&sales), false, 0, 100)
        .unwrap();
    let refs: Vec<String> = pages.iter().map(|p| p.reference.local()).collect();
    assert_eq!(
        refs,
        [
            "Sales.Q1",
            "Sales.WebHome",
            "Sales.Asia.Japan",
            "Sales.Europe.France",
            "Sales.Europe.WebHome"
        ]
    );
    assert_eq!(
        store
            .pages(&WikiId::main(), None, true, 0, 100)
            .unwrap()
            .len(),
        8
    );
    assert_eq!(
        store
            .pages(&WikiId::main(), None, true, 6, 100)
            .unwrap()
            .len(),
        2
    );
}
