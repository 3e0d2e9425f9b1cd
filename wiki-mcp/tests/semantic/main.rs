//! Semantic search in the stock binary, end to end: the `collections`, `index` and `models`
//! commands, and `serve` with its background indexer, driven over HTTP as agents drive it.
//!
//! Every case runs on a SQLite farm and, when `WIKI_MCP_TEST_DATABASE` names a PostgreSQL
//! server (`tests/postgres/with-cluster.sh` sets it), again on a scratch PostgreSQL database;
//! without one the PostgreSQL runs are reported as ignored, naming the variable. The cases that
//! need the embedding model use the one `semantic-search/scripts/install-test-model.sh`
//! installs, and say "skipped" without it (under CI a missing model fails).

// Helpers outside test functions panic on failure by design, like the tests they serve.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cases;
mod farm;
#[path = "../support/listening.rs"]
mod listening;

use libtest_mimic::{Arguments, Completion, Trial};

use crate::farm::Backend;

/// The variable that points the tests at a PostgreSQL server.
const TEST_DATABASE_VAR: &str = "WIKI_MCP_TEST_DATABASE";

fn main() {
    let args = Arguments::from_args();
    let server = std::env::var(TEST_DATABASE_VAR)
        .ok()
        .filter(|url| !url.trim().is_empty());
    if server.is_none() {
        eprintln!(
            "semantic: PostgreSQL runs skipped, {TEST_DATABASE_VAR} is not set \
             (tests/postgres/with-cluster.sh sets it)"
        );
    }
    let mut trials = Vec::new();
    for (name, run) in cases::cases() {
        trials.push(Trial::test(format!("sqlite::{name}"), move || {
            run(&Backend::Sqlite);
            Ok(())
        }));
        let server = server.clone();
        trials.push(Trial::ignorable_test(
            format!("postgres::{name}"),
            move || match &server {
                Some(server) => {
                    run(&Backend::Postgres(server.clone()));
                    Ok(Completion::Completed)
                }
                None => Ok(Completion::ignored_with(format!(
                    "{TEST_DATABASE_VAR} is not set"
                ))),
            },
        ));
    }
    libtest_mimic::run(&args, trials).exit();
}
