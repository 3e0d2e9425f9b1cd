//! Semantic search in the stock binary, end to end: the `collections`, `index` and `models`
//! commands, and `serve` with its background indexer, driven over HTTP as agents drive it.
//!
//! Every case is a `#[backend_test]`, run by wiki-store's runner on a SQLite farm and, when
//! `WIKI_MCP_TEST_DATABASE` names a PostgreSQL server (`tests/postgres/with-cluster.sh` sets it),
//! again on a scratch PostgreSQL database; without one the PostgreSQL runs are reported as
//! ignored, naming the variable. The cases that
//! need the embedding model use the one `semantic-search/scripts/install-test-model.sh`
//! installs, and say "skipped" without it (under CI a missing model fails).

// Helpers outside test functions panic on failure by design, like the tests they serve.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cases;
mod farm;
#[path = "../support/listening.rs"]
mod listening;

fn main() {
    wiki_store::testing::run_backend_tests()
}
