//! Farm-wide secrets: created once by whoever asks first, then the same for every process.

use std::sync::{Arc, Barrier};

use wiki_store::testing::backend_test;
use wiki_store::{InvalidInput, StoreError};

use crate::harness::{Fixture, count_events};

#[backend_test]
fn the_first_proposal_is_kept_and_every_process_gets_it(db: &Fixture) {
    let store = db.store();
    let (_subscription, seen) = count_events(&*store);
    let before = store.change_seq().unwrap();

    let first = [1u8; 32];
    assert_eq!(store.farm_secret("link-signing", &first).unwrap(), first);
    assert_eq!(
        store.farm_secret("link-signing", &[2u8; 32]).unwrap(),
        first,
        "a later proposal does not replace the secret"
    );
    assert_eq!(
        db.reopen().farm_secret("link-signing", &[3u8; 64]).unwrap(),
        first
    );
    assert_eq!(
        store.farm_secret("other", &[4u8; 16]).unwrap(),
        [4u8; 16],
        "names are independent"
    );

    assert_eq!(
        store.change_seq().unwrap(),
        before,
        "a secret is not a change a server caches"
    );
    assert_eq!(*seen.lock().unwrap(), 0);
}

#[backend_test]
fn concurrent_first_requests_agree_on_one_proposal(db: &Fixture) {
    const ASKERS: usize = 8;
    let barrier = Arc::new(Barrier::new(ASKERS));
    let handles: Vec<_> = (0..ASKERS)
        .map(|i| {
            // Half share one store, half open their own, as replicas would.
            let store = if i % 2 == 0 { db.store() } else { db.reopen() };
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                let proposal = vec![u8::try_from(i).unwrap() + 1; 32];
                barrier.wait();
                (
                    proposal.clone(),
                    store.farm_secret("race", &proposal).unwrap(),
                )
            })
        })
        .collect();
    let results: Vec<(Vec<u8>, Vec<u8>)> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let kept = &results[0].1;
    assert!(results.iter().all(|(_, got)| got == kept), "{results:?}");
    assert!(
        results.iter().any(|(proposed, _)| proposed == kept),
        "the kept secret is one of the proposals"
    );
}

#[backend_test]
fn names_and_lengths_are_checked_before_anything_is_stored(db: &Fixture) {
    let store = db.store();
    for name in ["", "Upper", "with space", "-leading", &"x".repeat(65)] {
        assert!(
            matches!(
                store.farm_secret(name, &[0; 32]),
                Err(StoreError::Invalid(InvalidInput::FarmSecret { .. }))
            ),
            "{name:?}"
        );
    }
    for length in [0, 15, 1025] {
        assert!(
            matches!(
                store.farm_secret("short", &vec![0; length]),
                Err(StoreError::Invalid(InvalidInput::FarmSecret { .. }))
            ),
            "{length}"
        );
    }
    assert_eq!(
        store.farm_secret("short", &[5; 16]).unwrap(),
        [5; 16],
        "nothing was stored by the refused requests"
    );
}

#[backend_test]
fn pruning_a_family_removes_only_its_old_members(db: &Fixture) {
    let store = db.store();
    let (_subscription, seen) = count_events(&*store);
    let before = store.change_seq().unwrap();
    let now_ms = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap();
    let kept = [
        "link-signing",
        "confirm-redeemed",
        "confirm-redeemedx.a",
        "confirm-redeemed-b.c",
        "other.confirm-redeemed.d",
    ];
    for name in kept {
        store.farm_secret(name, &[7; 16]).unwrap();
    }
    for nonce in ["a1", "b2", "c3"] {
        store
            .farm_secret(&format!("confirm-redeemed.{nonce}"), &[8; 16])
            .unwrap();
    }

    assert_eq!(
        store
            .prune_farm_secrets("confirm-redeemed.", now_ms - 60_000)
            .unwrap(),
        0,
        "records created after the cut-off stay"
    );
    assert_eq!(
        db.reopen()
            .prune_farm_secrets("confirm-redeemed.", now_ms + 60_000)
            .unwrap(),
        3
    );
    assert_eq!(
        store.farm_secret("confirm-redeemed.a1", &[9; 16]).unwrap(),
        [9; 16],
        "a pruned name is free again"
    );
    for name in kept {
        assert_eq!(
            store.farm_secret(name, &[1; 16]).unwrap(),
            [7; 16],
            "{name}"
        );
    }
    for prefix in ["confirm-redeemed", "", ".", "Upper."] {
        assert!(
            matches!(
                store.prune_farm_secrets(prefix, now_ms + 60_000),
                Err(StoreError::Invalid(InvalidInput::FarmSecret { .. }))
            ),
            "{prefix:?}"
        );
    }
    assert_eq!(store.change_seq().unwrap(), before);
    assert_eq!(*seen.lock().unwrap(), 0);
}
