//! Scale-out, end to end: two real `wiki-mcp serve` processes (the binary this package builds)
//! on one PostgreSQL database, driven over HTTP as agents drive them, administered by the real
//! admin commands.
//!
//! Every test but the password one needs a PostgreSQL server (`WIKI_MCP_TEST_DATABASE`, which
//! `tests/postgres/with-cluster.sh` sets) and is reported as ignored, naming the variable,
//! without one. Each test gets its own scratch database; the replicas reach it through a TCP
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

use libtest_mimic::{Arguments, Completion, Trial};

/// One test that needs the server: its name and its body, given the server's URL.
pub(crate) type Case = (&'static str, fn(&str));

/// The variable that points the tests at a PostgreSQL server.
const TEST_DATABASE_VAR: &str = "WIKI_MCP_TEST_DATABASE";

fn main() {
    let args = Arguments::from_args();
    let server = std::env::var(TEST_DATABASE_VAR)
        .ok()
        .filter(|url| !url.trim().is_empty());
    if server.is_none() {
        eprintln!(
            "replicas: skipped, {TEST_DATABASE_VAR} is not set (tests/postgres/with-cluster.sh sets it)"
        );
    }
    let mut trials: Vec<Trial> = scenarios::cases()
        .into_iter()
        .chain(setup::cases())
        .chain(admin_page::cases())
        .chain(migrate::cases())
        .chain(list_changes::cases())
        .chain(confirm::cases())
        .map(|(name, run)| {
            let server = server.clone();
            Trial::ignorable_test(name, move || match &server {
                Some(server) => {
                    run(server);
                    Ok(Completion::Completed)
                }
                None => Ok(Completion::ignored_with(format!(
                    "{TEST_DATABASE_VAR} is not set"
                ))),
            })
        })
        .collect();
    trials.push(Trial::test(
        "a_password_never_shows_in_errors_or_logs",
        || {
            setup::a_password_never_shows_in_errors_or_logs();
            Ok(())
        },
    ));
    libtest_mimic::run(&args, trials).exit();
}
