//! What is particular to the SQLite backend, on real files in temp dirs: the schema's own
//! constraints, the WAL files and the data_version commit marker, what the database file holds,
//! crash safety, and the migrations. Behaviour every backend shares is in `tests/conformance`.

// Helpers outside #[test] functions panic on failure by design, like the tests they serve.
#![allow(clippy::unwrap_used)]

mod access_schema;
mod admin_sessions;
mod crash;
mod files;
mod harness;
mod interrupts;
mod look_alikes;
mod schema;
mod transfer_tables;
