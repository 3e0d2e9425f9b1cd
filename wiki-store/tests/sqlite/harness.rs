//! Shared set-up: a fresh SQLite store in a temp dir.

use std::path::PathBuf;

use tempfile::TempDir;
use wiki_store::model::document::DocumentSave;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::sqlite::DATABASE_FILE;
use wiki_store::{DocumentStore, SqliteStore};

/// A store on a fresh database file; keep the `TempDir` alive as long as the store.
pub(crate) fn store() -> (TempDir, SqliteStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(data(&dir)).unwrap();
    (dir, store)
}

/// The data directory of a store made by [`store`].
pub(crate) fn data(dir: &TempDir) -> PathBuf {
    dir.path().join("data")
}

/// The database file of a store made by [`store`].
pub(crate) fn database_file(dir: &TempDir) -> PathBuf {
    data(dir).join(DATABASE_FILE)
}

/// A reference in the main wiki.
pub(crate) fn reference(input: &str) -> DocumentReference {
    DocumentReference::parse(input, &WikiId::main()).unwrap()
}

/// Saves `content` as `alice`, with no version check.
pub(crate) fn put(store: &SqliteStore, input: &str, content: &str) {
    store
        .save_document(&DocumentSave::new(reference(input), content, "alice"))
        .unwrap();
}
