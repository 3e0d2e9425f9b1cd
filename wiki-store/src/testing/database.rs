//! One test's throw-away database on a backend, and the stores opened on it.

use std::path::Path;
use std::sync::Arc;

use tempfile::TempDir;

use super::Backend;
use super::scratch::ScratchDatabase;
use crate::{PostgresStore, SqliteStore, Store, StoreConfig};

/// One test's empty database on a [`Backend`]: a SQLite data directory, or a fresh PostgreSQL
/// database with the schema, deleted or dropped when this value is (after every store on it).
///
/// Every [`TestDatabase::open`] opens a separate store sharing nothing in memory with the
/// others, as a second process (an admin command, a replica) would: what one writes reaches
/// another only through the database and its change feed.
pub struct TestDatabase {
    backend: Backend,
    postgres: Option<ScratchDatabase>,
    // Last: SQLite's data directory (and a scratch directory on PostgreSQL).
    dir: TempDir,
}

impl std::fmt::Debug for TestDatabase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestDatabase")
            .field("backend", &self.backend.name())
            .field("dir", &self.dir.path())
            .finish_non_exhaustive()
    }
}

impl TestDatabase {
    /// A fresh database on [`Backend::current`].
    #[track_caller]
    pub fn new() -> Self {
        Self::on(&Backend::current())
    }

    /// A fresh database on `backend`.
    #[track_caller]
    pub fn on(backend: &Backend) -> Self {
        let dir = setup("create a temporary directory", tempfile::tempdir());
        let postgres = backend.server().map(ScratchDatabase::migrated);
        Self {
            backend: backend.clone(),
            postgres,
            dir,
        }
    }

    /// A new store on the database with the default configuration (on SQLite the first one
    /// creates the schema).
    #[track_caller]
    pub fn open(&self) -> Arc<dyn Store> {
        self.open_with(StoreConfig::default())
    }

    /// A new store on the database opened with `config`.
    #[track_caller]
    pub fn open_with(&self, config: StoreConfig) -> Arc<dyn Store> {
        match &self.postgres {
            None => Arc::new(setup(
                "open the store",
                SqliteStore::open_with(self.dir.path(), config),
            )),
            Some(database) => Arc::new(setup(
                "connect to the test database",
                PostgresStore::connect_with(database.url(), config),
            )),
        }
    }

    /// The backend the database is on.
    pub fn backend(&self) -> &Backend {
        &self.backend
    }

    /// The scratch PostgreSQL database, `None` on SQLite: for what a test does behind the
    /// store's back.
    pub fn postgres(&self) -> Option<&ScratchDatabase> {
        self.postgres.as_ref()
    }

    /// A temporary directory that lives as long as the database: SQLite's data directory
    /// (its `wiki.db` is there); an empty scratch directory on PostgreSQL.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl Default for TestDatabase {
    fn default() -> Self {
        Self::new()
    }
}

/// Unwraps a setup step, naming what failed: a failed setup is a failed test.
#[track_caller]
fn setup<T, E: std::fmt::Display>(what: &str, result: Result<T, E>) -> T {
    result.unwrap_or_else(|error| panic!("test database: cannot {what}: {error}"))
}
