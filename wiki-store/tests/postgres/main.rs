//! What only the PostgreSQL backend has: outages and recovery, connections killed by the server,
//! the notification connection and its polling fallback, lock and statement timeouts, bounded
//! retries, schema versions shared by replicas, the pool's bound. Behaviour common to every
//! backend is the conformance suite's (`tests/conformance`).
//!
//! Every test is a `#[backend_test(only = "postgres")]` given the server's URL
//! (`PostgresServer`, from `WIKI_MCP_TEST_DATABASE` as in the suite), and is reported as ignored,
//! naming the variable, without one.

// Helpers outside test functions panic on failure by design, like the tests they serve.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

mod proxy;
#[path = "../support/rich_farm.rs"]
mod rich_farm;

mod availability;
mod schema;
mod timeouts;
mod transfer;

/// Waits until `done` holds, or fails naming `what` after `limit`.
pub(crate) fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn main() {
    wiki_store::testing::run_backend_tests()
}
