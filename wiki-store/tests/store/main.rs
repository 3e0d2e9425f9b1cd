//! Behaviour of the store through its public surface, on real SQLite files in temp dirs (WAL).

mod accounts;
mod concurrency;
mod documents;
mod harness;
