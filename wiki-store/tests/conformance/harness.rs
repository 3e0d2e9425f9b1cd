//! The suite's machinery: what a backend provides, what a test gets, and shared set-up.
//!
//! A backend is a [`Backend`]: a name and a constructor of fresh, empty [`Database`]s. Every test
//! is a plain `fn(&Fixture)` typed to [`Store`] (never to a backend's type), listed in its
//! module's `cases()`; `main` runs each test once per backend, named `<backend>::<module>::<test>`
//! (so `cargo test -p wiki-store --test conformance sqlite::documents` filters as usual).

use std::sync::{Arc, Mutex};

use wiki_store::api::Subscription;
use wiki_store::model::change::ChangeEvent;

use wiki_store::model::document::DocumentSave;
use wiki_store::model::version::Version;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::{Store, StoreConfig};

/// One backend the suite runs against.
pub(crate) struct Backend {
    /// The first segment of every test name, e.g. `sqlite`.
    pub(crate) name: &'static str,
    /// A fresh, empty database for one test, or why this backend cannot run here (an unset
    /// variable, never an unreachable server: that fails the test).
    pub(crate) database: fn() -> Result<Box<dyn Database>, Skip>,
}

/// Why a backend's tests are skipped; reported per test as `ignored, <reason>`, never as passed.
#[derive(Debug, Clone)]
pub(crate) struct Skip(pub(crate) String);

/// The name of the variable that points the suite at a PostgreSQL server.
pub(crate) const TEST_DATABASE_VAR: &str = "WIKI_MCP_TEST_DATABASE";

/// The value of `var`, or the skip that names it: how a backend needing a service finds it.
pub(crate) fn required_env(var: &str) -> Result<String, Skip> {
    match std::env::var(var) {
        Ok(value) if !value.trim().is_empty() => Ok(value),
        _ => Err(Skip(format!("{var} is not set"))),
    }
}

/// One test's database. Dropping it removes it (a temporary directory, a scratch database).
pub(crate) trait Database: Send {
    /// A store over this database opened with `config`. Every call opens a separate store value
    /// sharing nothing in memory with the others, as another process or replica would.
    fn open(&self, config: StoreConfig) -> Arc<dyn Store>;
}

/// What a test gets: a fresh database and a store opened on it with the default configuration.
pub(crate) struct Fixture {
    // Field order matters: the store closes before its database is removed.
    store: Arc<dyn Store>,
    database: Box<dyn Database>,
}

impl Fixture {
    pub(crate) fn new(database: Box<dyn Database>) -> Self {
        Fixture {
            store: database.open(StoreConfig::default()),
            database,
        }
    }

    /// The test's store (clone it into threads).
    pub(crate) fn store(&self) -> Arc<dyn Store> {
        Arc::clone(&self.store)
    }

    /// Another store on the same database, as another process would open it.
    pub(crate) fn reopen(&self) -> Arc<dyn Store> {
        self.database.open(StoreConfig::default())
    }

    /// Another store on the same database, opened with `config`.
    pub(crate) fn open_with(&self, config: StoreConfig) -> Arc<dyn Store> {
        self.database.open(config)
    }
}

/// One conformance test.
pub(crate) struct Case {
    pub(crate) name: &'static str,
    pub(crate) run: fn(&Fixture),
}

/// The cases of a module, by function name: `cases![first_test, second_test]`. A test left out
/// of the list is dead code, which the build refuses (`-D warnings`).
macro_rules! cases {
    ($($test:ident),* $(,)?) => {
        vec![$($crate::harness::Case { name: stringify!($test), run: $test }),*]
    };
}
pub(crate) use cases;

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
