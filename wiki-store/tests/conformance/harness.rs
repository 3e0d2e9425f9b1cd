//! The suite's machinery: what a test gets, and shared set-up.
//!
//! Every test is a plain `fn(&Fixture)` typed to [`Store`] (never to a backend's type) and marked
//! `#[backend_test]`: wiki-store's runner makes a trial of it per backend, named
//! `<backend>::<module>::<test>` (so `cargo test -p wiki-store --test conformance
//! sqlite::documents` filters as usual), each with a fresh, empty database.

use std::sync::{Arc, Mutex};

use wiki_store::api::Subscription;
use wiki_store::model::change::ChangeEvent;

use wiki_store::model::document::DocumentSave;
use wiki_store::model::version::Version;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::testing::{Backend, FromBackend, TestDatabase};
use wiki_store::{Store, StoreConfig};

/// What a test gets: a fresh database and a store opened on it with the default configuration.
pub(crate) struct Fixture {
    // Field order matters: the store closes before its database is removed.
    store: Arc<dyn Store>,
    database: TestDatabase,
}

impl FromBackend for Fixture {
    fn from_backend(backend: &Backend) -> Self {
        let database = TestDatabase::on(backend);
        Fixture {
            store: database.open(),
            database,
        }
    }
}

impl Fixture {
    /// The test's store (clone it into threads).
    pub(crate) fn store(&self) -> Arc<dyn Store> {
        Arc::clone(&self.store)
    }

    /// Another store on the same database, as another process would open it.
    pub(crate) fn reopen(&self) -> Arc<dyn Store> {
        self.database.open()
    }

    /// Another store on the same database, opened with `config`.
    pub(crate) fn open_with(&self, config: StoreConfig) -> Arc<dyn Store> {
        self.database.open_with(config)
    }
}

/// Counts the change events `store` publishes from now on (until the subscription drops).
pub(crate) fn count_events(store: &dyn Store) -> (Subscription, Arc<Mutex<usize>>) {
    let seen: Arc<Mutex<usize>> = Arc::default();
    let sink = Arc::clone(&seen);
    let subscription = store.subscribe(Arc::new(move |_: &ChangeEvent| *sink.lock().unwrap() += 1));
    (subscription, seen)
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
pub(crate) fn put(store: &dyn Store, input: &str, title: &str, content: &str) {
    store
        .save_document(&DocumentSave::new(reference(input), content, "alice").title(title))
        .unwrap();
}
