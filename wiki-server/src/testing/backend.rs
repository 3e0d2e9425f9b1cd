//! Which store a test farm runs on, and the throw-away database behind one farm.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use tempfile::TempDir;
use wiki_store::{PostgresStore, SqliteStore, Store};

use super::setup;
use wiki_store::postgres::scratch::ScratchDatabase;

/// The variable that points the PostgreSQL runs at a server (a URL or libpq's `key=value`
/// form whose database is a maintenance one, e.g. `postgres`); `tests/postgres/with-cluster.sh`
/// starts a throw-away server and sets it.
pub const TEST_DATABASE_VAR: &str = "WIKI_MCP_TEST_DATABASE";

/// A store backend a farm can run on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file in a temporary directory (the embedded default).
    Sqlite,
    /// A fresh database on the PostgreSQL server at `server`, dropped with the farm.
    Postgres {
        /// The server's URL, naming a database the test may connect to to create others.
        server: String,
    },
}

/// The backend of this test binary, set once by [`run_farm_suite`](super::run_farm_suite).
static CURRENT: OnceLock<Backend> = OnceLock::new();

impl Backend {
    /// The backend farms of this test binary run on when a test does not say: PostgreSQL in
    /// a binary whose `main` is [`run_farm_suite`](super::run_farm_suite) (when a server is
    /// configured), SQLite everywhere else.
    pub fn current() -> Backend {
        CURRENT.get().cloned().unwrap_or(Backend::Sqlite)
    }

    /// PostgreSQL at [`TEST_DATABASE_VAR`], or `None` when the variable is unset or empty.
    pub fn postgres_from_env() -> Option<Backend> {
        std::env::var(TEST_DATABASE_VAR)
            .ok()
            .filter(|server| !server.trim().is_empty())
            .map(|server| Backend::Postgres { server })
    }

    /// The backend's short name, as trial names and logs show it.
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres { .. } => "postgres",
        }
    }

    pub(super) fn set_current(backend: Backend) {
        // A second call (a runner started twice in one process) keeps the first backend.
        let _ = CURRENT.set(backend);
    }
}

/// One farm's empty database on a [`Backend`]: a SQLite data directory, or a fresh PostgreSQL
/// database, deleted or dropped when this value is (after every store on it).
///
/// [`TestDatabase::open`] opens another store on it, as a second process (an admin command, a
/// replica) would: what that store writes reaches a running server only through the
/// database's change feed.
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
    pub fn new() -> Self {
        Self::on(&Backend::current())
    }

    /// A fresh database on `backend`.
    #[track_caller]
    pub fn on(backend: &Backend) -> Self {
        let dir = setup("create a temporary directory", tempfile::tempdir());
        let postgres = match backend {
            Backend::Sqlite => None,
            Backend::Postgres { server } => Some(ScratchDatabase::migrated(server)),
        };
        Self {
            backend: backend.clone(),
            postgres,
            dir,
        }
    }

    /// A new store on the database (the schema is created by the first one).
    #[track_caller]
    pub fn open(&self) -> Arc<dyn Store> {
        match &self.postgres {
            None => Arc::new(setup("open the store", SqliteStore::open(self.dir.path()))),
            Some(database) => Arc::new(setup(
                "connect to the test database",
                PostgresStore::connect(database.url()),
            )),
        }
    }

    /// The backend the database is on.
    pub fn backend(&self) -> &Backend {
        &self.backend
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
