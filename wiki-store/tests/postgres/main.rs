//! What only the PostgreSQL backend has: outages and recovery, connections killed by the server,
//! the notification connection and its polling fallback, lock and statement timeouts, bounded
//! retries, schema versions shared by replicas, the pool's bound. Behaviour common to every
//! backend is the conformance suite's (`tests/conformance`).
//!
//! Every test needs a server (`WIKI_MCP_TEST_DATABASE`, as the suite) and is reported as
//! ignored, naming the variable, without one. Runs on libtest-mimic for that reason.

// Helpers outside test functions panic on failure by design, like the tests they serve.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Completion, Trial};

mod proxy;
#[path = "../support/rich_farm.rs"]
mod rich_farm;

mod availability;
mod schema;
mod timeouts;
mod transfer;

/// The variable that points the tests at a PostgreSQL server.
const TEST_DATABASE_VAR: &str = "WIKI_MCP_TEST_DATABASE";

/// One test: its name and its body, given the server's URL.
pub(crate) struct Case {
    pub(crate) name: &'static str,
    pub(crate) run: fn(&str),
}

macro_rules! cases {
    ($($test:ident),* $(,)?) => {
        vec![$($crate::Case { name: stringify!($test), run: $test }),*]
    };
}
pub(crate) use cases;

/// Waits until `done` holds, or fails naming `what` after `limit`.
pub(crate) fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn main() {
    let args = Arguments::from_args();
    let server = std::env::var(TEST_DATABASE_VAR)
        .ok()
        .filter(|url| !url.trim().is_empty());
    let mut trials = Vec::new();
    for (module, cases) in [
        ("availability", availability::cases()),
        ("schema", schema::cases()),
        ("timeouts", timeouts::cases()),
        ("transfer", transfer::cases()),
    ] {
        for case in cases {
            let server = server.clone();
            let run = case.run;
            trials.push(Trial::ignorable_test(
                format!("{module}::{}", case.name),
                move || match &server {
                    Some(server) => {
                        run(server);
                        Ok(Completion::Completed)
                    }
                    None => Ok(Completion::ignored_with(format!(
                        "{TEST_DATABASE_VAR} is not set"
                    ))),
                },
            ));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
