//! Users, groups, rights and API tokens, stored and resolved.

use std::sync::{Arc, Mutex};

use wiki_store::model::change::{ChangeEvent, ChangeKind};
use wiki_store::model::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::model::token::TokenScope;
use wiki_store::model::user::{ALL_USERS_GROUP, GUEST_USER};
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::SpacePath;
use wiki_store::rights::Reason;
use wiki_store::testing::backend_test;
use wiki_store::{Entity, InvalidInput, Store, StoreError};

use crate::harness::{Fixture, reference};

fn user(name: &str) -> Subject {
    Subject::User(name.to_owned())
}

fn group(name: &str) -> Subject {
    Subject::Group(name.to_owned())
}

fn rule(scope: RightScope, subject: Subject, right: Right, effect: Effect) -> RightRule {
    RightRule {
        scope,
        subject,
        right,
        effect,
    }
}

fn main_wiki() -> RightScope {
    RightScope::Wiki(WikiId::main())
}

fn space(path: &str) -> RightScope {
    RightScope::Space {
        wiki: WikiId::main(),
        space: SpacePath::parse(path).unwrap(),
    }
}

fn page(input: &str) -> RightScope {
    RightScope::Page(reference(input))
}

fn seeded(db: &Fixture) -> Arc<dyn Store> {
    let store = db.store();
    store.create_user("alice", Some("Alice")).unwrap();
    store.create_user("bob", None).unwrap();
    store.create_group("editors").unwrap();
    store.create_group("staff").unwrap();
    store.add_member("editors", &user("alice")).unwrap();
    store.add_member("staff", &group("editors")).unwrap();
    store
}

#[backend_test]
fn users_are_created_listed_and_deleted_and_the_guest_is_built_in(db: &Fixture) {
    let store = seeded(db);
    let names: Vec<String> = store
        .list_users()
        .unwrap()
        .into_iter()
        .map(|u| u.name)
        .collect();
    assert_eq!(names, ["alice", "bob"]);
    assert_eq!(
        store.user("alice").unwrap().display_name.as_deref(),
        Some("Alice")
    );
    assert!(store.user(GUEST_USER).unwrap().is_guest());
    assert!(matches!(
        store.create_user("alice", None),
        Err(StoreError::AlreadyExists {
            entity: Entity::User,
            ..
        })
    ));
    assert!(matches!(
        store.create_user(GUEST_USER, None),
        Err(StoreError::Invalid(InvalidInput::GuestIsBuiltIn))
    ));
    assert!(matches!(
        store.delete_user(GUEST_USER),
        Err(StoreError::Invalid(InvalidInput::GuestIsBuiltIn))
    ));
    assert!(matches!(
        store.create_user("bad name", None),
        Err(StoreError::Invalid(InvalidInput::Name { .. }))
    ));
    store.delete_user("bob").unwrap();
    assert!(matches!(
        store.user("bob"),
        Err(StoreError::NotFound {
            entity: Entity::User,
            ..
        })
    ));
}

#[backend_test]
fn groups_nest_and_deleting_a_member_removes_its_memberships_and_rules(db: &Fixture) {
    let store = seeded(db);
    store.add_member("editors", &user(GUEST_USER)).unwrap();
    store.add_member("editors", &user("alice")).unwrap();
    let editors = store.group("editors").unwrap();
    assert_eq!(editors.users, ["alice", GUEST_USER]);
    assert_eq!(store.group("staff").unwrap().groups, ["editors"]);
    assert!(matches!(
        store.add_member("editors", &user("nobody")),
        Err(StoreError::NotFound { .. })
    ));
    assert!(matches!(
        store.add_member("nogroup", &user("alice")),
        Err(StoreError::NotFound { .. })
    ));

    store
        .set_right(&rule(
            main_wiki(),
            user("alice"),
            Right::View,
            Effect::Allow,
        ))
        .unwrap();
    store.delete_user("alice").unwrap();
    assert!(
        store
            .group("editors")
            .unwrap()
            .users
            .iter()
            .all(|u| u != "alice")
    );
    assert!(store.list_rights(&WikiId::main()).unwrap().is_empty());
    store.delete_group("editors").unwrap();
    assert!(store.group("staff").unwrap().groups.is_empty());
    assert!(matches!(
        store.remove_member("staff", &group("editors")),
        Err(StoreError::NotFound {
            entity: Entity::Membership,
            ..
        })
    ));
}

#[backend_test]
fn rights_are_stored_replaced_listed_and_removed(db: &Fixture) {
    let store = seeded(db);
    let deny = rule(space("Private"), group("staff"), Right::View, Effect::Deny);
    store.set_right(&deny).unwrap();
    let allow = RightRule {
        effect: Effect::Allow,
        ..deny.clone()
    };
    store.set_right(&allow).unwrap();
    store
        .set_right(&rule(
            page("Private.Plan"),
            user("bob"),
            Right::Edit,
            Effect::Allow,
        ))
        .unwrap();
    store
        .set_right(&rule(
            main_wiki(),
            user(GUEST_USER),
            Right::View,
            Effect::Allow,
        ))
        .unwrap();
    let listed = store.list_rights(&WikiId::main()).unwrap();
    assert_eq!(
        listed.len(),
        3,
        "setting a rule again replaces its effect: {listed:?}"
    );
    assert!(listed.contains(&allow));
    assert!(listed.contains(&rule(
        page("Private.Plan"),
        user("bob"),
        Right::Edit,
        Effect::Allow
    )));

    store
        .remove_right(&allow.scope, &allow.subject, Right::View)
        .unwrap();
    assert!(matches!(
        store.remove_right(&allow.scope, &allow.subject, Right::View),
        Err(StoreError::NotFound {
            entity: Entity::Right,
            ..
        })
    ));
    let unknown_subject = rule(main_wiki(), user("nobody"), Right::View, Effect::Allow);
    assert!(matches!(
        store.set_right(&unknown_subject),
        Err(StoreError::NotFound {
            entity: Entity::User,
            ..
        })
    ));
    let unknown_wiki = rule(
        RightScope::Wiki(WikiId::new("nowiki").unwrap()),
        user("bob"),
        Right::View,
        Effect::Allow,
    );
    assert!(matches!(
        store.set_right(&unknown_wiki),
        Err(StoreError::NotFound {
            entity: Entity::Wiki,
            ..
        })
    ));
}

#[backend_test]
fn the_resolver_runs_over_stored_rules_and_nested_groups(db: &Fixture) {
    let store = seeded(db);
    store
        .set_right(&rule(
            main_wiki(),
            group("staff"),
            Right::View,
            Effect::Allow,
        ))
        .unwrap();
    store
        .set_right(&rule(
            main_wiki(),
            user(GUEST_USER),
            Right::View,
            Effect::Allow,
        ))
        .unwrap();
    store
        .set_right(&rule(
            space("Private"),
            user(GUEST_USER),
            Right::View,
            Effect::Deny,
        ))
        .unwrap();
    store
        .set_right(&rule(main_wiki(), user("bob"), Right::Admin, Effect::Allow))
        .unwrap();

    let verdict = store
        .check_right("alice", Right::View, &page("Sales.Europe.Plan"))
        .unwrap();
    assert!(
        verdict.allowed,
        "alice views through editors -> staff: {verdict:?}"
    );
    assert!(
        !store
            .check_right("alice", Right::Edit, &page("Sales.Plan"))
            .unwrap()
            .allowed
    );
    assert!(
        store
            .check_right(GUEST_USER, Right::View, &page("Sales.Plan"))
            .unwrap()
            .allowed
    );
    assert!(
        !store
            .check_right(GUEST_USER, Right::View, &page("Private.Sub.Plan"))
            .unwrap()
            .allowed
    );
    let farm_admin = store
        .check_right("bob", Right::Delete, &page("Private.Plan"))
        .unwrap();
    assert_eq!(farm_admin.reason, Reason::FarmAdmin);

    let snapshot = store.rights_snapshot().unwrap();
    assert!(snapshot.can("alice", Right::View, &page("Private.Plan")));
    assert!(!snapshot.can(GUEST_USER, Right::View, &page("Private.Plan")));
}

#[backend_test]
fn every_registered_user_is_in_the_built_in_all_users_group(db: &Fixture) {
    let store = seeded(db);
    let everyone = group(ALL_USERS_GROUP);
    store
        .set_right(&rule(
            main_wiki(),
            everyone.clone(),
            Right::View,
            Effect::Allow,
        ))
        .unwrap();
    assert!(
        store
            .check_right("bob", Right::View, &page("Any.Page"))
            .unwrap()
            .allowed
    );
    assert!(
        !store
            .check_right(GUEST_USER, Right::View, &page("Any.Page"))
            .unwrap()
            .allowed
    );
    store.add_member("staff", &everyone).unwrap();
    store
        .set_right(&rule(
            space("Team"),
            group("staff"),
            Right::Edit,
            Effect::Allow,
        ))
        .unwrap();
    assert!(
        store
            .check_right("bob", Right::Edit, &page("Team.Plan"))
            .unwrap()
            .allowed
    );
    store.delete_user("bob").unwrap();
    assert!(
        !store
            .check_right("bob", Right::View, &page("Any.Page"))
            .unwrap()
            .allowed
    );
    assert_eq!(store.group(ALL_USERS_GROUP).unwrap().users, ["alice"]);
    let listed: Vec<String> = store
        .list_groups()
        .unwrap()
        .into_iter()
        .map(|g| g.name)
        .collect();
    assert_eq!(listed, [ALL_USERS_GROUP, "editors", "staff"]);
    assert!(matches!(
        store.create_group(ALL_USERS_GROUP),
        Err(StoreError::Invalid(InvalidInput::Name { .. }))
    ));
    assert!(matches!(
        store.add_member(ALL_USERS_GROUP, &user("alice")),
        Err(StoreError::Invalid(InvalidInput::Name { .. }))
    ));
}

#[backend_test]
fn tokens_are_shown_once_stored_hashed_resolved_and_revoked(db: &Fixture) {
    let store = seeded(db);
    let issued = store.create_token("alice", "laptop").unwrap();
    let clear = issued.token.expose().to_owned();
    assert_eq!(
        store.resolve_token(&clear).unwrap().as_deref(),
        Some("alice")
    );

    let listed = store.list_tokens(Some("alice")).unwrap();
    assert_eq!(listed, std::slice::from_ref(&issued.info));
    assert!(store.list_tokens(Some("bob")).unwrap().is_empty());
    assert_eq!(store.list_tokens(None).unwrap().len(), 1);

    let mut altered = clear.clone();
    altered.pop();
    altered.push(if clear.ends_with('x') { 'y' } else { 'x' });
    assert_eq!(
        store.resolve_token(&altered).unwrap(),
        None,
        "same prefix, wrong secret"
    );
    assert_eq!(store.resolve_token("not a token").unwrap(), None);
    assert_eq!(
        store.resolve_token("wmcp_000000000000_secret").unwrap(),
        None,
        "unknown prefix"
    );

    store.revoke_token(&issued.info.prefix).unwrap();
    assert_eq!(store.resolve_token(&clear).unwrap(), None);
    assert!(matches!(
        store.revoke_token(&issued.info.prefix),
        Err(StoreError::NotFound {
            entity: Entity::Token,
            ..
        })
    ));
    assert!(matches!(
        store.create_token(GUEST_USER, ""),
        Err(StoreError::Invalid(InvalidInput::GuestIsBuiltIn))
    ));
    assert!(matches!(
        store.create_token("nobody", ""),
        Err(StoreError::NotFound {
            entity: Entity::User,
            ..
        })
    ));
}

#[backend_test]
fn a_scoped_token_keeps_its_scope_and_an_expired_one_resolves_to_no_user(db: &Fixture) {
    let store = seeded(db);
    let now = time::OffsetDateTime::now_utc();
    let scope = TokenScope {
        read_only: true,
        tools: Some(vec!["get_tree".into(), " get_document".into()]),
        wikis: Some(vec!["main".into()]),
        expires: Some(now + time::Duration::days(30)),
    };
    let issued = store.create_scoped_token("alice", "ci", &scope).unwrap();
    let grant = store
        .resolve_token_grant(issued.token.expose())
        .unwrap()
        .expect("a scoped token resolves");
    assert_eq!(grant.user, "alice");
    assert_eq!(grant.prefix, issued.info.prefix);
    assert!(grant.scope.read_only);
    assert_eq!(
        grant.scope.tools.as_deref(),
        Some(&["get_document".to_owned(), "get_tree".to_owned()][..]),
        "names trimmed and sorted"
    );
    assert_eq!(grant.scope.wikis.as_deref(), Some(&["main".to_owned()][..]));
    // Milliseconds are what is stored.
    let expires = grant.scope.expires.expect("an expiry");
    assert!((expires - (now + time::Duration::days(30))).abs() < time::Duration::milliseconds(1));
    assert_eq!(
        store.list_tokens(Some("alice")).unwrap(),
        std::slice::from_ref(&issued.info)
    );
    assert_eq!(grant.scope, issued.info.scope);

    let full = store.create_token("alice", "full").unwrap();
    let grant = store
        .resolve_token_grant(full.token.expose())
        .unwrap()
        .unwrap();
    assert!(grant.scope.is_full());

    let brief = TokenScope {
        expires: Some(time::OffsetDateTime::now_utc() + time::Duration::milliseconds(50)),
        ..TokenScope::full()
    };
    let brief = store.create_scoped_token("alice", "brief", &brief).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert_eq!(store.resolve_token(brief.token.expose()).unwrap(), None);
    let grant = store
        .resolve_token_grant(brief.token.expose())
        .unwrap()
        .unwrap();
    assert!(
        grant.scope.expired_at(time::OffsetDateTime::now_utc()),
        "an expired token still says whose it was and that it expired"
    );

    assert!(matches!(
        store.create_scoped_token(
            "alice",
            "",
            &TokenScope {
                expires: Some(now - time::Duration::seconds(1)),
                ..TokenScope::full()
            }
        ),
        Err(StoreError::Invalid(InvalidInput::TokenScope { .. }))
    ));
    assert!(matches!(
        store.create_scoped_token(
            "alice",
            "",
            &TokenScope {
                tools: Some(Vec::new()),
                ..TokenScope::full()
            }
        ),
        Err(StoreError::Invalid(InvalidInput::TokenScope { .. }))
    ));
}

#[backend_test]
fn deleting_a_user_revokes_their_tokens(db: &Fixture) {
    let store = seeded(db);
    let issued = store.create_token("bob", "").unwrap();
    store.delete_user("bob").unwrap();
    assert_eq!(store.resolve_token(issued.token.expose()).unwrap(), None);
}

#[backend_test]
fn rights_and_account_changes_are_published_to_subscribers(db: &Fixture) {
    let store = seeded(db);
    let events: Arc<Mutex<Vec<ChangeEvent>>> = Arc::default();
    let sink = Arc::clone(&events);
    let _subscription = store.subscribe(Arc::new(move |event: &ChangeEvent| {
        sink.lock().unwrap().push(event.clone());
    }));
    let dev = WikiId::new("dev").unwrap();
    store.create_wiki(&dev, "Dev").unwrap();
    let view = rule(
        RightScope::Wiki(dev.clone()),
        user("bob"),
        Right::View,
        Effect::Allow,
    );
    store.set_right(&view).unwrap();
    store.set_right(&view).unwrap();
    let token = store.create_token("bob", "").unwrap();
    store.revoke_token(&token.info.prefix).unwrap();
    store.remove_member("editors", &user("alice")).unwrap();
    let kinds: Vec<(String, ChangeKind)> = events
        .lock()
        .unwrap()
        .iter()
        .map(|e| (e.wiki.to_string(), e.kind.clone()))
        .collect();
    assert_eq!(
        kinds[1..],
        [
            ("dev".to_owned(), ChangeKind::RightsChanged),
            ("main".to_owned(), ChangeKind::AccountsChanged),
            ("main".to_owned(), ChangeKind::AccountsChanged),
            ("main".to_owned(), ChangeKind::AccountsChanged),
        ],
        "one event per change, none for the repeated rule"
    );
}

#[backend_test]
fn every_account_change_advances_the_change_sequence_and_no_ops_do_not(db: &Fixture) {
    let store = seeded(db);
    let mut last = store.change_seq().unwrap();
    let mut advanced = |what: &str, store: &dyn Store| {
        let now = store.change_seq().unwrap();
        assert!(
            now > last,
            "{what} should advance the sequence ({last} -> {now})"
        );
        last = now;
    };
    store.create_user("carol", None).unwrap();
    advanced("create_user", &*store);
    store.add_member("staff", &user("carol")).unwrap();
    advanced("add_member", &*store);
    let view = rule(main_wiki(), user("carol"), Right::View, Effect::Allow);
    store.set_right(&view).unwrap();
    advanced("set_right", &*store);
    let token = store.create_token("carol", "").unwrap();
    advanced("create_token", &*store);
    store.revoke_token(&token.info.prefix).unwrap();
    advanced("revoke_token", &*store);

    let before = store.change_seq().unwrap();
    store.set_right(&view).unwrap();
    store.add_member("staff", &user("carol")).unwrap();
    assert_eq!(
        store.change_seq().unwrap(),
        before,
        "re-setting what is already there changes nothing"
    );
    assert!(store.create_user("carol", None).is_err());
    assert_eq!(
        store.change_seq().unwrap(),
        before,
        "a refused write changes nothing"
    );
}

#[backend_test]
fn token_uses_move_last_used_forward_only_without_a_change(db: &Fixture) {
    let store = seeded(db);
    let used = store.create_token("alice", "laptop").unwrap();
    let idle = store.create_token("alice", "ci").unwrap();
    assert_eq!(used.info.last_used, None, "a fresh token was never used");
    let events: Arc<Mutex<Vec<ChangeEvent>>> = Arc::default();
    let sink = Arc::clone(&events);
    let _subscription = store.subscribe(Arc::new(move |event: &ChangeEvent| {
        sink.lock().unwrap().push(event.clone());
    }));
    let seq = store.change_seq().unwrap();
    let last_used = |prefix: &str| {
        store
            .list_tokens(Some("alice"))
            .unwrap()
            .into_iter()
            .find(|token| token.prefix == prefix)
            .unwrap()
            .last_used
    };
    let noon = time::macros::datetime!(2026-11-30 12:00:00.250 UTC);
    let minute = time::Duration::minutes(1);

    store.record_token_use(&used.info.prefix, noon).unwrap();
    assert_eq!(last_used(&used.info.prefix), Some(noon));
    store
        .record_token_use(&used.info.prefix, noon - minute)
        .unwrap();
    assert_eq!(
        last_used(&used.info.prefix),
        Some(noon),
        "an older use does not move it back"
    );
    store
        .record_token_use(&used.info.prefix, noon + minute)
        .unwrap();
    assert_eq!(last_used(&used.info.prefix), Some(noon + minute));
    assert_eq!(last_used(&idle.info.prefix), None, "only that token");

    assert_eq!(
        store.change_seq().unwrap(),
        seq,
        "a use is not a change: server caches stay valid"
    );
    assert!(events.lock().unwrap().is_empty(), "and no event is emitted");

    store.record_token_use("000000000000", noon).unwrap();
    store.revoke_token(&used.info.prefix).unwrap();
    store
        .record_token_use(&used.info.prefix, noon + minute + minute)
        .unwrap();
    let listed = store.list_tokens(None).unwrap();
    assert_eq!(
        listed.iter().map(|t| t.prefix.as_str()).collect::<Vec<_>>(),
        [idle.info.prefix.as_str()],
        "recording an unknown or revoked token's use is a no-op that creates nothing"
    );
}
