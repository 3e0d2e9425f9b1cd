//! Tests that run on every store backend (cargo feature `testing`): the backends, a throw-away
//! database on each, and one attribute and one runner that make a test of each test function
//! per backend.
//!
//! ```ignore
//! use wiki_store::testing::{Backend, backend_test};
//!
//! /// Runs as `sqlite::<module>::saves_a_page` and `postgres::<module>::saves_a_page`, each with
//! /// a fresh database (`Fixture` implements [`FromBackend`]).
//! #[backend_test]
//! fn saves_a_page(db: &Fixture) { /* ... */ }
//!
//! /// An async test: whatever it builds on [`Backend::current`] (a test farm) is on the trial's
//! /// backend.
//! #[backend_test(flavor = "multi_thread", worker_threads = 2)]
//! async fn serves_two_calls_at_once() { /* ... */ }
//!
//! /// What only one backend has.
//! #[backend_test(only = "postgres")]
//! fn survives_a_restart(backend: &Backend) { /* ... */ }
//! ```
//!
//! The test target declares `harness = false` and its `main` is [`run_backend_tests`]:
//!
//! ```toml
//! [[test]]
//! name = "server"
//! path = "tests/server/main.rs"   # the modules, and `fn main() { wiki_store::testing::run_backend_tests() }`
//! harness = false
//! ```
//!
//! libtest can neither run one function twice nor report a test as skipped at run time, so the
//! runner is libtest-mimic's, with libtest's arguments (filters, `--exact`, `--list`,
//! `--test-threads`): what `cargo test` and `cargo nextest` pass work unchanged. Every trial is
//! named `<backend>::<module>::<test>`. A backend whose service is absent (PostgreSQL without
//! [`TEST_DATABASE_VAR`]) has each of its trials reported as ignored, with the reason, never as
//! passed. In a standard-harness target, where the runner would not be `main`, each such test
//! fails, saying so, rather than silently never running.
//!
//! - [`Backend`]: which store, and the trial's one ([`Backend::current`]);
//! - [`TestDatabase`]: one test's empty database on a backend, and stores opened on it;
//! - [`scratch`]: scratch PostgreSQL databases (what [`TestDatabase`] uses on PostgreSQL);
//! - [`FromBackend`]: what a sync test takes, built from the trial's backend ([`TestDatabase`],
//!   [`PostgresServer`], [`Backend`], or a fixture of the test crate's own).

mod backend;
mod database;
mod runner;
pub mod scratch;

pub use backend::{Backend, TEST_DATABASE_VAR};
pub use database::TestDatabase;
pub use runner::run_backend_tests;
pub use wiki_store_testing_macros::backend_test;

/// What a sync `#[backend_test] fn name(ctx: &T)` takes: `T` built afresh for each trial from
/// the trial's backend (a fixture holding a fresh database, the backend itself, ...).
pub trait FromBackend {
    /// The value for one trial on `backend`. Panics (a failed setup is a failed test).
    fn from_backend(backend: &Backend) -> Self;
}

impl FromBackend for Backend {
    fn from_backend(backend: &Backend) -> Self {
        backend.clone()
    }
}

impl FromBackend for TestDatabase {
    fn from_backend(backend: &Backend) -> Self {
        TestDatabase::on(backend)
    }
}

/// What a `#[backend_test(only = "postgres")] fn name(server: &PostgresServer)` takes: the
/// server's URL (it dereferences to it), on which the test makes the databases it needs.
#[derive(Debug, Clone)]
pub struct PostgresServer(String);

impl FromBackend for PostgresServer {
    fn from_backend(backend: &Backend) -> Self {
        let server = backend.server().unwrap_or_else(|| {
            panic!(
                "a PostgresServer test runs on PostgreSQL, not {backend:?}: add only = \"postgres\""
            )
        });
        PostgresServer(server.to_owned())
    }
}

impl std::ops::Deref for PostgresServer {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

/// What `#[backend_test]` expands to names (not for direct use).
#[doc(hidden)]
pub mod __private {
    pub use super::runner::{Body, Case};
    pub use inventory;
}
