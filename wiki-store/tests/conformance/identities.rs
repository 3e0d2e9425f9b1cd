//! Identity links: an `(issuer, subject)` signs in the one user it is linked to; the same
//! subject at two issuers, or two subjects with one name, are different identities; a first
//! sign-in creates its user and link together or not at all; adoptions are claimed once.

use std::sync::{Arc, Barrier};
use std::time::Duration;

use wiki_store::testing::backend_test;
use wiki_store::{AdjustableClock, Entity, InvalidInput, StoreConfig, StoreError};

use crate::harness::{Fixture, count_events};

const A: &str = "https://a.example.com";
const B: &str = "https://b.example.com";
const MONTH: Duration = Duration::from_secs(30 * 24 * 3600);

#[backend_test]
fn an_identity_signs_in_only_the_user_it_is_linked_to(db: &Fixture) {
    let store = db.store();
    store.create_user("alice", None).unwrap();
    store.create_user("admin2", None).unwrap();
    assert_eq!(store.linked_user(A, "sub-1").unwrap(), None);

    let (_subscription, seen) = count_events(&*store);
    let before = store.change_seq().unwrap();
    assert!(store.link_identity(A, "sub-1", "alice").unwrap());
    assert!(
        store.change_seq().unwrap() > before,
        "servers drop what they cached"
    );
    assert_eq!(*seen.lock().unwrap(), 1);
    assert_eq!(
        store.linked_user(A, "sub-1").unwrap().as_deref(),
        Some("alice")
    );
    assert_eq!(
        store.linked_user(B, "sub-1").unwrap(),
        None,
        "another issuer's sub-1"
    );
    assert_eq!(
        store.linked_user(A, "SUB-1").unwrap(),
        None,
        "subjects are exact"
    );

    let unchanged = store.change_seq().unwrap();
    assert!(
        !store.link_identity(A, "sub-1", "alice").unwrap(),
        "linked already"
    );
    assert_eq!(store.change_seq().unwrap(), unchanged, "no change, no bump");
    assert!(matches!(
        store.link_identity(A, "sub-1", "admin2"),
        Err(StoreError::AlreadyExists {
            entity: Entity::IdentityLink,
            ..
        })
    ));
    assert!(matches!(
        store.link_identity(A, "sub-2", "nobody"),
        Err(StoreError::NotFound {
            entity: Entity::User,
            ..
        })
    ));
    assert!(matches!(
        store.link_identity(A, "sub-2", "guest"),
        Err(StoreError::Invalid(InvalidInput::GuestIsBuiltIn))
    ));
    assert!(matches!(
        store.link_identity(A, "bad\nsub", "alice"),
        Err(StoreError::Invalid(InvalidInput::Identity { .. }))
    ));

    // A user may hold several identities; they are listed by user, issuer, subject.
    assert!(store.link_identity(B, "other", "alice").unwrap());
    let listed: Vec<(String, String, String)> = store
        .identities()
        .unwrap()
        .links
        .into_iter()
        .map(|link| (link.user, link.issuer, link.subject))
        .collect();
    assert_eq!(
        listed,
        [
            ("alice".into(), A.into(), "sub-1".into()),
            ("alice".into(), B.into(), "other".into()),
        ]
    );

    assert!(store.unlink_identity(A, "sub-1").unwrap());
    assert!(!store.unlink_identity(A, "sub-1").unwrap());
    assert_eq!(store.linked_user(A, "sub-1").unwrap(), None);
    store.delete_user("alice").unwrap();
    assert!(
        store.identities().unwrap().links.is_empty(),
        "links go with the user"
    );
}

#[backend_test]
fn a_first_sign_in_creates_its_user_and_link_together_and_never_takes_a_name(db: &Fixture) {
    let store = db.store();
    store.create_user("admin", None).unwrap();
    let created = store.create_linked_user(A, "sub-dave", "dave").unwrap();
    assert_eq!(created.name, "dave");
    assert_eq!(
        store.linked_user(A, "sub-dave").unwrap().as_deref(),
        Some("dave")
    );

    // Another issuer's dave, or a token claiming the local admin's name, is not them.
    for (issuer, subject, name) in [(B, "sub-dave", "dave"), (A, "evil", "admin")] {
        assert!(
            matches!(
                store.create_linked_user(issuer, subject, name),
                Err(StoreError::AlreadyExists {
                    entity: Entity::User,
                    ..
                })
            ),
            "{name} at {issuer} is taken"
        );
        assert_eq!(
            store.linked_user(issuer, subject).unwrap(),
            None,
            "nothing half-written"
        );
    }
    assert!(matches!(
        store.create_linked_user(A, "sub-dave", "dave2"),
        Err(StoreError::AlreadyExists {
            entity: Entity::IdentityLink,
            ..
        })
    ));
    assert!(store.user("dave2").is_err());
}

#[backend_test]
fn an_adoption_is_claimed_once_by_its_issuer_and_settles_the_upgrade(db: &Fixture) {
    let store = db.store();
    for user in ["alice", "bob", "carol"] {
        store.create_user(user, None).unwrap();
    }
    store.link_identity(A, "sub-carol", "carol").unwrap();
    assert!(
        !store.identities().unwrap().upgrade_pending,
        "a new farm decides nothing"
    );

    let users = ["alice".to_owned(), "bob".to_owned(), "carol".to_owned()];
    assert_eq!(
        store.adopt_identities(A, &users, MONTH).unwrap(),
        2,
        "carol is linked at A already"
    );
    let adoptions: Vec<String> = store
        .identities()
        .unwrap()
        .adoptions
        .into_iter()
        .map(|adoption| adoption.user)
        .collect();
    assert_eq!(adoptions, ["alice", "bob"]);

    assert!(
        !store.claim_adopted_identity(B, "x", "alice").unwrap(),
        "not B's to claim"
    );
    assert!(
        store
            .claim_adopted_identity(A, "sub-alice", "alice")
            .unwrap()
    );
    assert_eq!(
        store.linked_user(A, "sub-alice").unwrap().as_deref(),
        Some("alice")
    );
    assert!(
        !store
            .claim_adopted_identity(A, "someone-else", "alice")
            .unwrap(),
        "claimed once"
    );
    // An explicit link settles an adoption too.
    store.link_identity(A, "sub-bob", "bob").unwrap();
    assert!(!store.claim_adopted_identity(A, "impostor", "bob").unwrap());
    assert!(store.identities().unwrap().adoptions.is_empty());

    assert!(matches!(
        store.adopt_identities(A, &["nobody".to_owned()], MONTH),
        Err(StoreError::NotFound { .. })
    ));
    assert!(matches!(
        store.adopt_identities(A, &[], Duration::ZERO),
        Err(StoreError::Invalid(InvalidInput::Identity { .. }))
    ));
}

#[backend_test]
fn a_lapsed_adoption_is_not_claimed(db: &Fixture) {
    let clock = AdjustableClock::new();
    let store = db.open_with(StoreConfig {
        clock: clock.clock(),
        ..StoreConfig::default()
    });
    store.create_user("alice", None).unwrap();
    store
        .adopt_identities(A, &["alice".to_owned()], MONTH)
        .unwrap();
    clock.advance(MONTH - Duration::from_secs(60));
    assert_eq!(store.identities().unwrap().adoptions.len(), 1, "not yet");
    clock.advance(Duration::from_secs(61));
    assert!(store.identities().unwrap().adoptions.is_empty());
    assert!(!store.claim_adopted_identity(A, "late", "alice").unwrap());
    assert_eq!(store.linked_user(A, "late").unwrap(), None);
}

#[backend_test]
fn concurrent_claims_of_one_adoption_link_one_identity(db: &Fixture) {
    const CLAIMERS: usize = 6;
    db.store().create_user("alice", None).unwrap();
    db.store()
        .adopt_identities(A, &["alice".to_owned()], MONTH)
        .unwrap();
    let barrier = Arc::new(Barrier::new(CLAIMERS));
    let handles: Vec<_> = (0..CLAIMERS)
        .map(|i| {
            let store = db.reopen();
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                barrier.wait();
                store
                    .claim_adopted_identity(A, &format!("sub-{i}"), "alice")
                    .unwrap()
            })
        })
        .collect();
    let claimed = handles
        .into_iter()
        .map(|handle| handle.join().unwrap())
        .filter(|claimed| *claimed)
        .count();
    assert_eq!(claimed, 1);
    assert_eq!(db.store().identities().unwrap().links.len(), 1);
}
