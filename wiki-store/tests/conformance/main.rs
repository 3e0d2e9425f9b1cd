//! The store's conformance suite: the behaviour of every `Store` backend through the public
//! traits, one test list run unchanged against each backend.
//!
//! Adding a backend is one line in [`BACKENDS`] and its module in `backends/`: a constructor of
//! fresh, empty databases. A backend that needs a service finds it through an environment
//! variable ([`harness::required_env`]) and, without it, reports each of its tests as ignored with
//! the reason, so a run never passes them silently. Backend-specific behaviour (SQLite's WAL,
//! its data_version commit marker, its files) is tested in `tests/sqlite`, not here.
//!
//! Runs on libtest-mimic (`harness = false`): the standard harness cannot make one test per
//! backend from one function, nor report a test skipped at run time.

// Helpers outside test functions panic on failure by design, like the tests they serve.
#![allow(clippy::unwrap_used)]

use libtest_mimic::{Arguments, Completion, Trial};

mod backends;
mod harness;

mod accounts;
mod admin_state;
mod any_words;
mod attachments;
mod changes;
mod concurrency;
mod config;
mod documents;
mod field_rules;
mod hierarchy;
mod identities;
mod import;
mod interrupts;
mod leases;
mod links;
mod look_alikes;
mod object_queries;
mod object_values;
mod objects;
mod search;
mod secrets;
mod structure_history;
mod trash;
mod unchanged_writes;
mod vectors;
mod wikis;

use harness::{Backend, Case, Fixture};

/// Every backend the suite runs against.
const BACKENDS: &[Backend] = &[backends::sqlite::BACKEND, backends::postgres::BACKEND];

/// Every module's tests, by module name.
fn suite() -> Vec<(&'static str, Vec<Case>)> {
    vec![
        ("accounts", accounts::cases()),
        ("admin_state", admin_state::cases()),
        ("any_words", any_words::cases()),
        ("attachments", attachments::cases()),
        ("changes", changes::cases()),
        ("concurrency", concurrency::cases()),
        ("config", config::cases()),
        ("documents", documents::cases()),
        ("field_rules", field_rules::cases()),
        ("hierarchy", hierarchy::cases()),
        ("identities", identities::cases()),
        ("import", import::cases()),
        ("interrupts", interrupts::cases()),
        ("leases", leases::cases()),
        ("links", links::cases()),
        ("look_alikes", look_alikes::cases()),
        ("object_queries", object_queries::cases()),
        ("object_values", object_values::cases()),
        ("objects", objects::cases()),
        ("search", search::cases()),
        ("secrets", secrets::cases()),
        ("structure_history", structure_history::cases()),
        ("trash", trash::cases()),
        ("unchanged_writes", unchanged_writes::cases()),
        ("vectors", vectors::cases()),
        ("wikis", wikis::cases()),
    ]
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for backend in BACKENDS {
        for (module, cases) in suite() {
            for case in cases {
                let name = format!("{}::{module}::{}", backend.name, case.name);
                let database = backend.database;
                let run = case.run;
                trials.push(Trial::ignorable_test(name, move || match database() {
                    Ok(database) => {
                        run(&Fixture::new(database));
                        Ok(Completion::Completed)
                    }
                    Err(skip) => Ok(Completion::ignored_with(skip.0)),
                }));
            }
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
