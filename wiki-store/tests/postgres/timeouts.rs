//! Bounded waits: a write blocked past its lock timeout is retried and then given up, a
//! statement past its timeout is cancelled, and the pool never grows past its size.

use std::time::{Duration, Instant};

use wiki_store::model::document::DocumentSave;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::testing::{PostgresServer, backend_test};
use wiki_store::{ChangeFeed, DocumentStore, PostgresStore, StoreConfig, StoreError};

use wiki_store::testing::scratch::ScratchDatabase;

fn page() -> DocumentReference {
    DocumentReference::parse("Locks.Page", &WikiId::main()).unwrap()
}

#[backend_test(only = "postgres")]
fn writes_blocked_past_their_lock_timeout_are_retried_then_given_up(server: &PostgresServer) {
    let database = ScratchDatabase::migrated(server);
    let store = PostgresStore::connect_with(
        database.url(),
        StoreConfig {
            lock_timeout_ms: 20,
            ..StoreConfig::default()
        },
    )
    .unwrap();
    let before = store.change_seq().unwrap();
    let mut admin = database.client();
    let mut holding = admin.transaction().unwrap();
    holding
        .batch_execute("LOCK TABLE change_seq IN ACCESS EXCLUSIVE MODE")
        .unwrap();
    let refused = store.save_document(&DocumentSave::new(page(), "blocked", "alice"));
    assert!(
        matches!(refused, Err(StoreError::ConcurrentSave { attempts: 8 })),
        "{refused:?}"
    );
    assert!(refused.is_err_and(|error| error.is_transient()));
    holding.rollback().unwrap();
    assert!(
        store.document(&page(), None).unwrap().is_none(),
        "nothing was written"
    );
    assert_eq!(store.change_seq().unwrap(), before);
    store
        .save_document(&DocumentSave::new(page(), "free", "alice"))
        .unwrap();
}

#[backend_test(only = "postgres")]
fn a_statement_past_its_timeout_is_cancelled_and_reported_unavailable(server: &PostgresServer) {
    let database = ScratchDatabase::migrated(server);
    let store = PostgresStore::connect_with(
        database.url(),
        StoreConfig {
            statement_timeout_ms: 100,
            lock_timeout_ms: 10_000,
            ..StoreConfig::default()
        },
    )
    .unwrap();
    let mut admin = database.client();
    let mut holding = admin.transaction().unwrap();
    holding
        .batch_execute("LOCK TABLE documents IN ACCESS EXCLUSIVE MODE")
        .unwrap();
    let started = Instant::now();
    let read = store.document(&page(), None);
    assert!(matches!(read, Err(StoreError::Unavailable(_))), "{read:?}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    holding.rollback().unwrap();
    assert!(store.document(&page(), None).unwrap().is_none());
}

#[backend_test(only = "postgres")]
fn the_pool_never_opens_more_connections_than_its_size(server: &PostgresServer) {
    let database = ScratchDatabase::migrated(server);
    let store = PostgresStore::connect_with(
        database.url(),
        StoreConfig {
            pool_size: 2,
            ..StoreConfig::default()
        },
    )
    .unwrap();
    let threads: Vec<_> = (0..8)
        .map(|i| {
            let store = store.clone();
            std::thread::spawn(move || {
                for n in 0..10 {
                    let reference =
                        DocumentReference::parse(&format!("Pool.P{i}x{n}"), &WikiId::main())
                            .unwrap();
                    store
                        .save_document(&DocumentSave::new(reference, "x", "alice"))
                        .unwrap();
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    let mut admin = database.client();
    let open: i64 = admin
        .query_one(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() \
             AND application_name = 'wiki-mcp'",
            &[],
        )
        .unwrap()
        .get(0);
    assert!(open <= 2, "{open} pooled connections for a pool of 2");
}
