//! Running the server as an operator does: the real `wiki-mcp serve` (and `stdio`) process, its health and
//! readiness under a database that stops and starts, its metrics, logs, traces and shutdown.
//!
//! A test that needs PostgreSQL's server programs (to make and stop a cluster of its own) is
//! reported as ignored, saying so, where they are not installed.

// Helpers outside test functions panic on failure by design, like the tests they serve.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/cluster.rs"]
mod cluster;
mod lifecycle;
#[path = "../support/listening.rs"]
mod listening;
mod logs;
mod metrics;
mod otlp_receiver;
mod readiness;
mod served;
mod stdio_stop;
mod traces;

use libtest_mimic::{Arguments, Completion, Trial};

/// What a test needs besides the binary.
pub(crate) enum Needs {
    /// Nothing.
    Nothing(fn()),
    /// PostgreSQL's `initdb` and `pg_ctl`, given as their directory.
    PostgresPrograms(fn(&std::path::Path)),
}

fn main() {
    let args = Arguments::from_args();
    let postgres = cluster::Cluster::installed();
    let trials = readiness::cases()
        .into_iter()
        .chain(metrics::cases())
        .chain(logs::cases())
        .chain(lifecycle::cases())
        .chain(traces::cases())
        .chain(stdio_stop::cases())
        .map(|(name, needs)| match needs {
            Needs::Nothing(run) => Trial::test(name, move || {
                run();
                Ok(())
            }),
            Needs::PostgresPrograms(run) => {
                let postgres = postgres.clone();
                Trial::ignorable_test(name, move || match &postgres {
                    Some(bindir) => {
                        run(bindir);
                        Ok(Completion::Completed)
                    }
                    None => Ok(Completion::ignored_with(
                        "PostgreSQL's initdb and pg_ctl are not installed \
                         (tests/postgres/install.sh installs them)",
                    )),
                })
            }
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
