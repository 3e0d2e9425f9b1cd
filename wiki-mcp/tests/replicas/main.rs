//! Scale-out, end to end: two real `wiki-mcp serve` processes (the binary this package builds)
//! on one PostgreSQL database, driven over HTTP as agents drive them, administered by the real
//! admin commands.
//!
//! Every test but the password one is a `#[backend_test(only = "postgres")]`: it needs a
//! PostgreSQL server (`WIKI_MCP_TEST_DATABASE`, which `tests/postgres/with-cluster.sh` sets) and
//! is reported as ignored, naming the variable, without one. Each test gets its own scratch database; the replicas reach it through a TCP
//! forwarder the outage tests take down, so no test stops the server others use.

// Helpers outside test functions panic on failure by design, like the tests they serve.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../../wiki-store/tests/postgres/proxy.rs"]
mod proxy;
#[path = "../../../wiki-store/tests/support/rich_farm.rs"]
mod rich_farm;

mod admin_page;
mod confirm;
mod farm;
mod list_changes;
#[path = "../support/listening.rs"]
mod listening;
mod migrate;
mod scenarios;
mod setup;

fn main() {
    wiki_store::testing::run_backend_tests()
}
