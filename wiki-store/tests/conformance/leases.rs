//! Farm-wide leases: of the processes of a farm (`reopen` is another process's connection)
//! exactly one holds a name at a time, renews it while it runs, and another takes it once it
//! is released or has expired.

use std::sync::{Arc, Barrier};
use std::time::Duration;

use wiki_store::model::lease::MAX_LEASE_TTL;
use wiki_store::testing::backend_test;
use wiki_store::{InvalidInput, StoreError};

use crate::harness::{Fixture, count_events};

const NAME: &str = "semantic-indexer";
const LONG: Duration = Duration::from_secs(60);

#[backend_test]
fn a_free_lease_is_taken_and_renewed_by_its_holder_and_refused_to_others(db: &Fixture) {
    let (a, b) = (db.store(), db.reopen());
    let (_subscription, seen) = count_events(&*a);
    let before = a.change_seq().unwrap();

    assert!(a.try_lease(NAME, "process-a", LONG).unwrap(), "free: taken");
    assert!(!b.try_lease(NAME, "process-b", LONG).unwrap(), "held by A");
    assert!(a.try_lease(NAME, "process-a", LONG).unwrap(), "renewed");
    assert!(
        b.try_lease("another-job", "process-b", LONG).unwrap(),
        "names are independent"
    );
    assert!(!a.try_lease("another-job", "process-a", LONG).unwrap());

    assert_eq!(a.change_seq().unwrap(), before, "no change of content");
    assert_eq!(*seen.lock().unwrap(), 0, "no change event");
}

#[backend_test]
fn a_released_lease_is_free_at_once_and_only_its_holder_releases_it(db: &Fixture) {
    let (a, b) = (db.store(), db.reopen());
    assert!(a.try_lease(NAME, "process-a", LONG).unwrap());
    assert!(
        !b.release_lease(NAME, "process-b").unwrap(),
        "not B's to release"
    );
    assert!(!b.try_lease(NAME, "process-b", LONG).unwrap(), "still A's");
    assert!(a.release_lease(NAME, "process-a").unwrap());
    assert!(
        !a.release_lease(NAME, "process-a").unwrap(),
        "released already"
    );
    assert!(
        b.try_lease(NAME, "process-b", LONG).unwrap(),
        "free without waiting for the expiry"
    );
}

#[backend_test]
fn an_expired_lease_goes_to_the_next_asker(db: &Fixture) {
    let (a, b) = (db.store(), db.reopen());
    assert!(
        a.try_lease(NAME, "process-a", Duration::from_millis(200))
            .unwrap()
    );
    assert!(
        !b.try_lease(NAME, "process-b", LONG).unwrap(),
        "not expired yet"
    );
    std::thread::sleep(Duration::from_millis(400));
    assert!(
        b.try_lease(NAME, "process-b", LONG).unwrap(),
        "A stopped renewing (it died): B takes over"
    );
    assert!(
        !a.try_lease(NAME, "process-a", LONG).unwrap(),
        "A, back, finds it B's and does not take it back"
    );
    assert!(
        !a.release_lease(NAME, "process-a").unwrap(),
        "nor can it release B's"
    );
}

#[backend_test]
fn a_renewal_extends_the_lease(db: &Fixture) {
    let (a, b) = (db.store(), db.reopen());
    let short = Duration::from_millis(600);
    assert!(a.try_lease(NAME, "process-a", short).unwrap());
    for _ in 0..4 {
        std::thread::sleep(Duration::from_millis(250));
        assert!(a.try_lease(NAME, "process-a", short).unwrap());
        assert!(
            !b.try_lease(NAME, "process-b", short).unwrap(),
            "renewed in time: still A's, past the first lease's end"
        );
    }
}

#[backend_test]
fn concurrent_askers_of_a_free_lease_get_it_once(db: &Fixture) {
    const ASKERS: usize = 6;
    let barrier = Arc::new(Barrier::new(ASKERS));
    let handles: Vec<_> = (0..ASKERS)
        .map(|i| {
            let store = db.reopen();
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                barrier.wait();
                store
                    .try_lease(NAME, &format!("process-{i}"), LONG)
                    .unwrap()
            })
        })
        .collect();
    let taken = handles
        .into_iter()
        .map(|handle| handle.join().unwrap())
        .filter(|taken| *taken)
        .count();
    assert_eq!(taken, 1);
}

#[backend_test]
fn lease_requests_out_of_bounds_are_refused(db: &Fixture) {
    let store = db.store();
    let refused = |result: Result<bool, StoreError>| {
        assert!(
            matches!(result, Err(StoreError::Invalid(InvalidInput::Lease { .. }))),
            "{result:?}"
        );
    };
    refused(store.try_lease("", "p", LONG));
    refused(store.try_lease(NAME, "", LONG));
    refused(store.try_lease(&"n".repeat(129), "p", LONG));
    refused(store.try_lease(NAME, "p", Duration::ZERO));
    refused(store.try_lease(NAME, "p", MAX_LEASE_TTL + Duration::from_secs(1)));
    refused(store.release_lease(NAME, ""));
    assert!(
        store.try_lease(NAME, "p", LONG).unwrap(),
        "nothing was taken by a refused request"
    );
}
