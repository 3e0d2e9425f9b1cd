//! The store backends a test runs on, which of them this run can reach, and the trial's own.

use std::cell::RefCell;

/// The variable that points the PostgreSQL trials at a server (a URL or libpq's `key=value`
/// form whose database is a maintenance one, e.g. `postgres`); `tests/postgres/with-cluster.sh`
/// starts a throw-away server and sets it.
pub const TEST_DATABASE_VAR: &str = "WIKI_MCP_TEST_DATABASE";

/// A store backend a test runs on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file in a temporary directory (the embedded default).
    Sqlite,
    /// A fresh database per test on the PostgreSQL server at `server`.
    Postgres {
        /// The server's URL, naming a database the test may connect to to create others.
        server: String,
    },
}

/// The names of every backend, in the order the runner makes their trials.
pub(super) const NAMES: [&str; 2] = ["sqlite", "postgres"];

thread_local! {
    /// The backend of the trial this thread runs (or serves, for a trial's runtime threads).
    static CURRENT: RefCell<Option<Backend>> = const { RefCell::new(None) };
}

impl Backend {
    /// The backend of the trial running on this thread (the runner sets it on the trial's
    /// thread and on its tokio runtime's threads); SQLite outside a trial (a doctest, a
    /// standard-harness test). What a test builds without naming a backend uses this one.
    pub fn current() -> Backend {
        CURRENT
            .with(|current| current.borrow().clone())
            .unwrap_or(Backend::Sqlite)
    }

    /// PostgreSQL at [`TEST_DATABASE_VAR`], or `None` when the variable is unset or empty.
    pub fn postgres_from_env() -> Option<Backend> {
        std::env::var(TEST_DATABASE_VAR)
            .ok()
            .filter(|server| !server.trim().is_empty())
            .map(|server| Backend::Postgres { server })
    }

    /// The backend named `name` (one of [`NAMES`]) if this run can reach it, else why not: the
    /// reason each of its trials is reported ignored with.
    pub(super) fn reachable(name: &str) -> Result<Backend, String> {
        match name {
            "sqlite" => Ok(Backend::Sqlite),
            _ => Backend::postgres_from_env().ok_or_else(|| {
                format!(
                    "skipped: no PostgreSQL, set {TEST_DATABASE_VAR} \
                     (tests/postgres/with-cluster.sh starts a server and sets it)"
                )
            }),
        }
    }

    /// The backend's short name, as trial names and logs show it.
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres { .. } => "postgres",
        }
    }

    /// The PostgreSQL server's URL, `None` on SQLite.
    pub fn server(&self) -> Option<&str> {
        match self {
            Backend::Sqlite => None,
            Backend::Postgres { server } => Some(server),
        }
    }

    /// Makes `self` this thread's [`Backend::current`] until the guard drops (a panic
    /// included), when the previous one is back.
    pub(super) fn enter(&self) -> Entered {
        Entered {
            previous: self.clone().make_current(),
        }
    }

    /// Makes `self` this thread's [`Backend::current`] for good (a test runtime's threads,
    /// which end with the trial), returning the previous one.
    pub(super) fn make_current(self) -> Option<Backend> {
        CURRENT.with(|current| current.replace(Some(self)))
    }
}

/// Restores the thread's previous backend when dropped.
pub(super) struct Entered {
    previous: Option<Backend>,
}

impl Drop for Entered {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CURRENT.with(|current| *current.borrow_mut() = previous);
    }
}
