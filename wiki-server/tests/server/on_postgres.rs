//! The server core's tests on PostgreSQL: the modules of `main.rs` (the same list: a test there
//! checks it), whose every `#[farm_test]` runs here as one trial on a fresh database of the
//! server that `WIKI_MCP_TEST_DATABASE` names (reported as ignored, with the reason, without it).

// A harness-less build drops `#[test]`s, so what only those use is unused here; the `server`
// binary lints it all.
#![allow(unused_imports, dead_code)]

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
    wiki_server::testing::run_farm_suite()
}
