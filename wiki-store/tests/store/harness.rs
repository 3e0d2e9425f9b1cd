//! Shared set-up: a fresh store in a temp dir, references, saves.

use tempfile::TempDir;
use wiki_store::model::document::DocumentSave;
use wiki_store::model::version::Version;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::{DocumentStore, SqliteStore};

/// A store on a fresh database file; keep the `TempDir` alive as long as the store.
pub(crate) fn store() -> (TempDir, SqliteStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path().join("data")).unwrap();
    (dir, store)
}

/// A reference in the main wiki.
pub(crate) fn reference(input: &str) -> DocumentReference {
    DocumentReference::parse(input, &WikiId::main()).unwrap()
}

/// A version from its text (`"1.2"`).
pub(crate) fn v(text: &str) -> Version {
    text.parse().unwrap()
}

/// Saves `content` under `title` as `alice`, with no version check.
pub(crate) fn put(store: &SqliteStore, input: &str, title: &str, content: &str) {
    store
        .save_document(&DocumentSave::new(reference(input), content, "alice").title(title))
        .unwrap();
}
