//! The store's conformance suite: the behaviour of every `Store` backend through the public
//! traits, one test list run unchanged against each backend.
//!
//! Every test is a `#[backend_test]` taking a [`harness::Fixture`], run by wiki-store's runner
//! (`wiki_store::testing`) once per backend; a backend that needs a service
//! (`WIKI_MCP_TEST_DATABASE` for PostgreSQL) reports each of its tests as ignored without it, so
//! a run never passes them silently. Backend-specific behaviour (SQLite's WAL, its data_version
//! commit marker, its files) is tested in `tests/sqlite`, not here.

// Helpers outside test functions panic on failure by design, like the tests they serve.
#![allow(clippy::unwrap_used)]

mod harness;

mod accounts;
mod admin_state;
mod any_words;
mod attachments;
mod changes;
mod concurrency;
mod config;
mod documents;
mod field_rules;
mod hierarchy;
mod identities;
mod import;
mod interrupts;
mod leases;
mod links;
mod look_alikes;
mod object_queries;
mod object_values;
mod objects;
mod search;
mod secrets;
mod structure_history;
mod trash;
mod unchanged_writes;
mod vectors;
mod wikis;

fn main() {
    wiki_store::testing::run_backend_tests()
}
