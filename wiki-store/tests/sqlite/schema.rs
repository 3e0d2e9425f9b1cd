//! SQLite's schema version through the public surface: a database written by a newer build is
//! refused untouched, and an up-to-date one opens as it is. (Each migration is tested from empty
//! and from the version before it in `src/sqlite/migrations/tests.rs`.)

use wiki_store::{DocumentStore, SqliteStore, StoreError};

use crate::harness::{data, database_file, put, reference, store};

fn user_version(dir: &tempfile::TempDir) -> u32 {
    rusqlite::Connection::open(database_file(dir))
        .unwrap()
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .unwrap()
}

#[test]
fn a_database_from_a_newer_build_is_refused_untouched() {
    let (dir, store) = store();
    put(&store, "Kept.Page", "content");
    drop(store);
    let current = user_version(&dir);
    let newer = current + 1;
    rusqlite::Connection::open(database_file(&dir))
        .unwrap()
        .execute_batch(&format!("PRAGMA user_version = {newer}"))
        .unwrap();
    let err = SqliteStore::open(data(&dir)).unwrap_err();
    assert!(
        matches!(err, StoreError::SchemaTooNew { found, supported } if found == newer && supported == current),
        "{err:?}"
    );
    assert_eq!(user_version(&dir), newer, "the file is left as it was");
    let pages: i64 = rusqlite::Connection::open(database_file(&dir))
        .unwrap()
        .query_row("SELECT count(*) FROM documents", [], |row| row.get(0))
        .unwrap();
    assert_eq!(pages, 1);
}

#[test]
fn an_up_to_date_database_opens_as_it_is() {
    let (dir, store) = store();
    put(&store, "Kept.Page", "content");
    drop(store);
    let version = user_version(&dir);
    let store = SqliteStore::open(data(&dir)).unwrap();
    assert_eq!(user_version(&dir), version);
    assert!(
        store
            .document(&reference("Kept.Page"), None)
            .unwrap()
            .is_some()
    );
}
