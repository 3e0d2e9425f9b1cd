//! Tree queries, and children that show only what the caller may view.

use std::thread::sleep;
use std::time::Duration;

use wiki_store::Store;
use wiki_store::model::document::DocumentSave;
use wiki_store::model::hierarchy::TreeNode;
use wiki_store::model::locale::Locale;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::{DocumentReference, SpacePath};
use wiki_store::rights::{Effect, Right, RightRule, RightScope, RightsSnapshot, Subject};
use wiki_store::testing::backend_test;

use crate::harness::{Fixture, put, reference};

fn seed(store: &dyn Store) {
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

#[backend_test]
fn top_level_spaces_count_pages_and_hidden_pages(db: &Fixture) {
    let store = db.store();
    seed(&*store);
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

#[backend_test]
fn children_of_a_space_home_are_its_pages_and_nested_spaces(db: &Fixture) {
    let store = db.store();
    seed(&*store);
    let page = store
        .children(&reference("Sales.WebHome"), false, 0, 10, &mut |_| true)
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
            .children(&reference("Sales.WebHome"), true, 0, 10, &mut |_| true)
            .unwrap()
            .total,
        4
    );
    let second = store
        .children(&reference("Sales.WebHome"), false, 1, 1, &mut |_| true)
        .unwrap();
    assert_eq!(second.nodes[0].reference.local(), "Sales.Europe.WebHome");
    assert_eq!(second.total, 3);
    assert_eq!(
        store
            .children(&reference("Sales.Q1"), true, 0, 10, &mut |_| true)
            .unwrap()
            .total,
        0,
        "a terminal page"
    );
    let europe = store
        .children(
            &reference("Sales.Europe.WebHome"),
            false,
            0,
            10,
            &mut |_| true,
        )
        .unwrap();
    assert_eq!(europe.nodes[0].reference.local(), "Sales.Europe.France");
}

#[backend_test]
fn pages_list_rows_under_a_space_in_reference_order(db: &Fixture) {
    let store = db.store();
    seed(&*store);
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

/// Under `Docs` (home and `Intro` open to alice and bob), nested spaces with pages denied to alice:
/// - `Secret` (no home): denied by a rule on the nested space;
/// - `Vault` (no home): every page denied by a page rule, one of them in `Vault.Deeper`;
/// - `Mixed` (no home): `Open` viewable, `Closed` (saved later) denied;
/// - `Shadow` (no home): its visible page denied, its hidden page viewable;
/// - `Locked`: its home page ("Locked Home") denied, `Shared` viewable.
fn seed_rights(store: &dyn Store) {
    for page in [
        "Docs.WebHome",
        "Docs.Intro",
        "Docs.Secret.Plan",
        "Docs.Secret.Budget",
        "Docs.Vault.Plan1",
        "Docs.Vault.Plan2",
        "Docs.Vault.Deeper.Plan3",
        "Docs.Mixed.Open",
        "Docs.Shadow.Visible",
        "Docs.Locked.Shared",
    ] {
        put(store, page, page, "");
    }
    put(store, "Docs.Locked.WebHome", "Locked Home", "");
    store
        .save_document(&DocumentSave::new(reference("Docs.Shadow.Tech"), "", "a").hidden(true))
        .unwrap();
    // Later than every page alice may view in Mixed.
    sleep(Duration::from_millis(5));
    put(store, "Docs.Mixed.Closed", "Closed", "");

    let rule = |scope: RightScope, user: &str, effect: Effect| {
        store
            .set_right(&RightRule {
                scope,
                subject: Subject::User(user.to_owned()),
                right: Right::View,
                effect,
            })
            .unwrap();
    };
    for user in ["alice", "bob"] {
        store.create_user(user, None).unwrap();
        rule(RightScope::Wiki(WikiId::main()), user, Effect::Allow);
    }
    let secret = SpacePath::parse("Docs.Secret").unwrap();
    rule(
        RightScope::Space {
            wiki: WikiId::main(),
            space: secret,
        },
        "alice",
        Effect::Deny,
    );
    for page in [
        "Docs.Vault.Plan1",
        "Docs.Vault.Plan2",
        "Docs.Vault.Deeper.Plan3",
        "Docs.Mixed.Closed",
        "Docs.Shadow.Visible",
        "Docs.Locked.WebHome",
    ] {
        rule(RightScope::Page(reference(page)), "alice", Effect::Deny);
    }
}

/// The view check of `user` as a hierarchy query asks it.
fn viewer<'a>(
    rights: &'a RightsSnapshot,
    user: &'a str,
) -> impl FnMut(&DocumentReference) -> bool + 'a {
    move |page| rights.can(user, Right::View, &RightScope::Page(page.clone()))
}

/// `Local.Ref title hidden` per node.
fn described(nodes: &[TreeNode]) -> Vec<String> {
    nodes
        .iter()
        .map(|n| {
            format!(
                "{} {:?} {}",
                n.reference.local(),
                n.title.as_deref(),
                n.hidden
            )
        })
        .collect()
}

#[backend_test]
fn nested_spaces_with_no_viewable_page_are_left_out(db: &Fixture) {
    let store = db.store();
    seed_rights(&*store);
    let rights = store.rights_snapshot().unwrap();
    let docs = reference("Docs.WebHome");
    let alice = store
        .children(&docs, false, 0, 50, &mut viewer(&rights, "alice"))
        .unwrap();
    assert_eq!(
        described(&alice.nodes),
        [
            "Docs.Intro Some(\"Docs.Intro\") false",
            "Docs.Locked.WebHome None false",
            "Docs.Mixed.WebHome None false",
        ],
        "no Secret, Vault or Shadow; Locked without its denied home's title"
    );
    assert_eq!(alice.total, 3);
    let vault = reference("Docs.Vault.WebHome");
    let inside = store
        .children(&vault, true, 0, 50, &mut viewer(&rights, "alice"))
        .unwrap();
    assert_eq!(inside.total, 0, "not even the deeper space: {inside:?}");

    let bob = store
        .children(&docs, false, 0, 50, &mut viewer(&rights, "bob"))
        .unwrap();
    assert_eq!(
        described(&bob.nodes),
        [
            "Docs.Intro Some(\"Docs.Intro\") false",
            "Docs.Locked.WebHome Some(\"Locked Home\") false",
            "Docs.Mixed.WebHome None false",
            "Docs.Secret.WebHome None false",
            "Docs.Shadow.WebHome None false",
            "Docs.Vault.WebHome None false",
        ]
    );
    assert_eq!(bob.total, 6);
    let inside = store
        .children(&vault, false, 0, 50, &mut viewer(&rights, "bob"))
        .unwrap();
    assert_eq!(
        described(&inside.nodes),
        [
            "Docs.Vault.Deeper.WebHome None false",
            "Docs.Vault.Plan1 Some(\"Docs.Vault.Plan1\") false",
            "Docs.Vault.Plan2 Some(\"Docs.Vault.Plan2\") false",
        ]
    );
}

#[backend_test]
fn counts_paging_and_updates_cover_only_viewable_pages(db: &Fixture) {
    let store = db.store();
    seed_rights(&*store);
    let rights = store.rights_snapshot().unwrap();
    let docs = reference("Docs.WebHome");
    let second = store
        .children(&docs, false, 1, 1, &mut viewer(&rights, "alice"))
        .unwrap();
    assert_eq!(described(&second.nodes), ["Docs.Locked.WebHome None false"]);
    assert_eq!(second.total, 3);

    let mixed = reference("Docs.Mixed.WebHome");
    let alice = store
        .children(&mixed, false, 0, 50, &mut viewer(&rights, "alice"))
        .unwrap();
    assert_eq!(
        described(&alice.nodes),
        ["Docs.Mixed.Open Some(\"Docs.Mixed.Open\") false"]
    );
    assert_eq!(alice.total, 1);
    let bob = store
        .children(&mixed, false, 0, 50, &mut viewer(&rights, "bob"))
        .unwrap();
    assert_eq!(bob.total, 2);

    // A space node's update is the newest page the caller may view in it.
    let updated = |user: &str| {
        store
            .children(&docs, false, 0, 50, &mut viewer(&rights, user))
            .unwrap()
            .nodes
            .into_iter()
            .find(|node| node.reference == mixed)
            .and_then(|node| node.updated)
    };
    let open = store.document(&reference("Docs.Mixed.Open"), None).unwrap();
    let closed = store
        .document(&reference("Docs.Mixed.Closed"), None)
        .unwrap();
    let (open, closed) = (open.unwrap().updated, closed.unwrap().updated);
    assert!(open < closed);
    assert_eq!(updated("alice"), Some(open));
    assert_eq!(updated("bob"), Some(closed));
}

#[backend_test]
fn a_space_node_is_hidden_when_every_page_the_caller_may_view_is(db: &Fixture) {
    let store = db.store();
    seed_rights(&*store);
    let rights = store.rights_snapshot().unwrap();
    let docs = reference("Docs.WebHome");
    let shadow = reference("Docs.Shadow.WebHome");
    let find = |user: &str, include_hidden: bool| {
        let page = store
            .children(&docs, include_hidden, 0, 50, &mut viewer(&rights, user))
            .unwrap();
        page.nodes.into_iter().find(|node| node.reference == shadow)
    };
    assert_eq!(
        find("alice", false),
        None,
        "its only visible page is denied"
    );
    assert!(find("alice", true).is_some_and(|node| node.hidden));
    assert!(find("bob", false).is_some_and(|node| !node.hidden));
}
