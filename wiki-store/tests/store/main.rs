//! Behaviour of the store through its public surface, on real SQLite files in temp dirs (WAL).

// Helpers outside #[test] functions panic on failure by design, like the tests they serve.
#![allow(clippy::unwrap_used)]

mod access_schema;
mod accounts;
mod attachments;
mod changes;
mod concurrency;
mod config;
mod crash;
mod documents;
mod harness;
mod hierarchy;
mod import;
mod links;
mod look_alikes;
mod object_queries;
mod objects;
mod search;
mod trash;
mod unchanged_writes;
