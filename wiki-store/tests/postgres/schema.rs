//! Schema versions on a database several replicas share.

use wiki_store::api::{
    DocumentStore, IdentityStore, LeaseStore, TokenStore, UserStore, VectorStore,
};
use wiki_store::model::document::DocumentSave;
use wiki_store::model::structure::StructureComparison;
use wiki_store::model::version::Version;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::{PostgresStore, StoreConfig, StoreError, WikiStore};

use wiki_store::testing::scratch::ScratchDatabase;
use wiki_store::testing::{PostgresServer, backend_test};

/// The newest schema version: the number of migrations in `src/postgres/sql/` (0002 added the
/// vector indexes, 0003 the admin state, 0004 the revisions' records of objects and
/// attachments, 0005 the leases, 0006 the vector sequence, 0007 the identity links, 0008 the API
/// tokens' scopes).
const LATEST: u32 = 8;

/// What schema 7 added, dropped to build an older database.
const DROP_IDENTITIES: &str =
    "DROP TABLE identity_links; DROP TABLE identity_adoptions; DROP TABLE identity_upgrade;";

/// What schema 8 added, dropped to build an older database.
const DROP_TOKEN_SCOPE: &str = "ALTER TABLE api_tokens DROP COLUMN scope, DROP COLUMN expires_ms;";

#[backend_test(only = "postgres")]
fn replicas_starting_together_on_an_empty_database_migrate_it_once(server: &PostgresServer) {
    let database = ScratchDatabase::empty(server);
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

#[backend_test(only = "postgres")]
fn a_database_of_a_newer_schema_is_refused_untouched(server: &PostgresServer) {
    let database = ScratchDatabase::empty(server);
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

/// A database of schema 3 (revisions without their `structure` record) is brought to the
/// newest schema, and its old revisions say that they recorded nothing.
#[backend_test(only = "postgres")]
fn revisions_from_schema_3_migrate_and_say_they_recorded_nothing(server: &PostgresServer) {
    let database = ScratchDatabase::empty(server);
    let store = PostgresStore::connect_with(database.url(), StoreConfig::default()).unwrap();
    let page = DocumentReference::parse("Old.Page", &WikiId::main()).unwrap();
    store
        .save_document(&DocumentSave::new(page.clone(), "before", "alice"))
        .unwrap();
    drop(store);
    let mut admin = database.client();
    admin
        .batch_execute(&format!(
            "{DROP_IDENTITIES} {DROP_TOKEN_SCOPE} ALTER TABLE revisions DROP COLUMN structure; \
             ALTER TABLE trash_revisions DROP COLUMN structure; \
             DROP TABLE leases; \
             DROP TABLE vector_seq; \
             ALTER TABLE vector_rows DROP COLUMN written_seq; \
             UPDATE schema_version SET version = 3"
        ))
        .unwrap();
    let store = PostgresStore::connect_with(database.url(), StoreConfig::default()).unwrap();
    store
        .save_document(&DocumentSave::new(page.clone(), "after", "alice"))
        .unwrap();
    let diff = store
        .diff(&page, None, Version::FIRST, "1.2".parse().unwrap())
        .unwrap();
    assert_eq!(
        diff.structure,
        StructureComparison::Unrecorded(vec![Version::FIRST])
    );
    let version: i32 = admin
        .query_one("SELECT version FROM schema_version", &[])
        .unwrap()
        .get(0);
    assert_eq!(i64::from(version), i64::from(LATEST));
}

/// A database of schema 4 (no leases, no vector sequence) gets both, and they work.
#[backend_test(only = "postgres")]
fn a_database_of_schema_4_gets_leases_and_the_vector_sequence(server: &PostgresServer) {
    let database = ScratchDatabase::empty(server);
    let store = PostgresStore::connect_with(database.url(), StoreConfig::default()).unwrap();
    let page = DocumentReference::parse("Kept.Page", &WikiId::main()).unwrap();
    store
        .save_document(&DocumentSave::new(page.clone(), "kept", "alice"))
        .unwrap();
    drop(store);
    let mut admin = database.client();
    admin
        .batch_execute(&format!(
            "{DROP_IDENTITIES} {DROP_TOKEN_SCOPE} DROP TABLE leases; DROP TABLE vector_seq; \
                 ALTER TABLE vector_rows DROP COLUMN written_seq; \
                 UPDATE schema_version SET version = 4"
        ))
        .unwrap();
    let store = PostgresStore::connect_with(database.url(), StoreConfig::default()).unwrap();
    let ttl = std::time::Duration::from_secs(60);
    assert!(store.try_lease("job", "p1", ttl).unwrap());
    assert!(!store.try_lease("job", "p2", ttl).unwrap());
    assert!(store.document(&page, None).unwrap().is_some());
    assert_eq!(store.vector_seq().unwrap(), 0);
    let version: i32 = admin
        .query_one("SELECT version FROM schema_version", &[])
        .unwrap()
        .get(0);
    assert_eq!(i64::from(version), i64::from(LATEST));
}

/// A farm of schema 6 with users matched OIDC tokens by name: it awaits the administrator's
/// decision after the upgrade, and no identity signs anyone in by name.
#[backend_test(only = "postgres")]
fn a_database_of_schema_6_with_users_awaits_the_identity_decision(server: &PostgresServer) {
    let database = ScratchDatabase::empty(server);
    let store = PostgresStore::connect_with(database.url(), StoreConfig::default()).unwrap();
    store.create_user("alice", None).unwrap();
    assert!(!store.identities().unwrap().upgrade_pending, "a new farm");
    drop(store);
    let mut admin = database.client();
    admin
        .batch_execute(&format!(
            "{DROP_IDENTITIES} {DROP_TOKEN_SCOPE} UPDATE schema_version SET version = 6"
        ))
        .unwrap();
    let store = PostgresStore::connect_with(database.url(), StoreConfig::default()).unwrap();
    assert!(store.identities().unwrap().upgrade_pending);
    assert_eq!(store.linked_user("https://id", "alice").unwrap(), None);
    store
        .adopt_identities("https://id", &[], std::time::Duration::from_secs(60))
        .unwrap();
    assert!(!store.identities().unwrap().upgrade_pending);
}

/// A token stored at schema 7 (before scopes) is a full token after the upgrade.
#[backend_test(only = "postgres")]
fn a_token_from_schema_7_keeps_working_as_a_full_token(server: &PostgresServer) {
    let database = ScratchDatabase::empty(server);
    let store = PostgresStore::connect_with(database.url(), StoreConfig::default()).unwrap();
    store.create_user("alice", None).unwrap();
    let issued = store.create_token("alice", "old").unwrap();
    drop(store);
    let mut admin = database.client();
    admin
        .batch_execute(
            "ALTER TABLE api_tokens DROP COLUMN scope, DROP COLUMN expires_ms; \
             UPDATE schema_version SET version = 7",
        )
        .unwrap();
    let store = PostgresStore::connect_with(database.url(), StoreConfig::default()).unwrap();
    let grant = store
        .resolve_token_grant(issued.token.expose())
        .unwrap()
        .expect("the old token still resolves");
    assert_eq!(grant.user, "alice");
    assert!(grant.scope.is_full(), "an old token is a full token");
    let version: i32 = admin
        .query_one("SELECT version FROM schema_version", &[])
        .unwrap()
        .get(0);
    assert_eq!(i64::from(version), i64::from(LATEST));
}
