//! Schema versions on a database several replicas share.

use wiki_store::{PostgresStore, StoreConfig, StoreError, WikiStore};

use crate::scratch::ScratchDatabase;
use crate::{Case, cases};

/// The newest schema version: the number of migrations in `src/postgres/sql/` (0002 added the
/// vector indexes).
const LATEST: u32 = 2;

fn replicas_starting_together_on_an_empty_database_migrate_it_once(server: &str) {
    let database = ScratchDatabase::create(server);
    let url = database.url().to_owned();
    let threads: Vec<_> = (0..6)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || PostgresStore::connect_with(&url, StoreConfig::default()))
        })
        .collect();
    let stores: Vec<PostgresStore> = threads
        .into_iter()
        .map(|thread| thread.join().unwrap().unwrap())
        .collect();
    for store in &stores {
        assert_eq!(store.list_wikis().unwrap().len(), 1, "one main wiki");
    }
    let mut admin = database.client();
    let version: i32 = admin
        .query_one("SELECT version FROM schema_version", &[])
        .unwrap()
        .get(0);
    assert_eq!(i64::from(version), i64::from(LATEST));
}

fn a_database_of_a_newer_schema_is_refused_untouched(server: &str) {
    let database = ScratchDatabase::create(server);
    let store = PostgresStore::connect_with(database.url(), StoreConfig::default()).unwrap();
    let wiki = wiki_store::model::wiki::WikiId::new("kept").unwrap();
    store.create_wiki(&wiki, "Kept").unwrap();
    drop(store);
    let mut admin = database.client();
    admin
        .batch_execute("UPDATE schema_version SET version = 99")
        .unwrap();
    let refused = PostgresStore::connect_with(database.url(), StoreConfig::default());
    assert!(
        matches!(
            refused,
            Err(StoreError::SchemaTooNew {
                found: 99,
                supported: LATEST
            })
        ),
        "{refused:?}"
    );
    let kept: i64 = admin
        .query_one("SELECT count(*) FROM wikis WHERE id = 'kept'", &[])
        .unwrap()
        .get(0);
    assert_eq!(kept, 1, "nothing was touched");
}

pub(crate) fn cases() -> Vec<Case> {
    cases![
        replicas_starting_together_on_an_empty_database_migrate_it_once,
        a_database_of_a_newer_schema_is_refused_untouched,
    ]
}
