//! The server core through its public surface: the manager over a real farm (a temp dir or a
//! scratch database), and the rmcp handler driven by rmcp's client over an in-process pipe.
//!
//! Every test is a `#[backend_test]`, run by wiki-store's runner once per store backend (SQLite,
//! and PostgreSQL when `WIKI_MCP_TEST_DATABASE` names a server).

mod audit_record;
mod calls;
mod cancel_notifications;
mod disconnects;
mod doors;
mod harness;
mod identities;
mod list_wikis;
mod logs;
mod man;
mod manager;
mod served;
mod signals;
mod skills;
mod tools;

fn main() {
    wiki_store::testing::run_backend_tests()
}
