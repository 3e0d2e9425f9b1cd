//! The server core through its public surface: the manager over a real SQLite farm in a temp
//! dir, and the rmcp handler driven by rmcp's client over an in-process pipe.
//!
//! Every `#[farm_test]` also runs on PostgreSQL in the `server_postgres` binary
//! (`on_postgres.rs`, the same module list, checked below).

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

/// `on_postgres.rs` declares exactly these modules, so no test is left out of the PostgreSQL run.
#[test]
fn the_postgres_binary_runs_the_same_modules() {
    wiki_server::testing::assert_same_modules(
        include_str!("main.rs"),
        include_str!("on_postgres.rs"),
    );
}
