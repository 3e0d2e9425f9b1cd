//! Scratch databases for tests, on the PostgreSQL server a test run points at: one per test,
//! dropped with the value whatever connections are still open (pools, change-feed listeners).
//! The one place tests of every crate make their PostgreSQL databases.
//!
//! Creating the schema costs more than creating a database, and under a test runner that starts
//! a process per test (cargo-nextest) a per-process template would be made once per test. So
//! [`ScratchDatabase::migrated`] copies a template shared by every process on the server
//! (`CREATE DATABASE .. TEMPLATE`), named after the schema version it holds and made by the first
//! process that needs it, under an advisory lock. It is kept: the throwaway cluster of
//! `tests/postgres/with-cluster.sh` goes with the run, and on a server of one's own one template
//! per schema version stays. Migrations are append-only, so a template of a version holds what
//! this build makes of it.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::postgres::migrations::MIGRATIONS;
use crate::schema::latest;

/// The advisory lock key under which a template is made ("wikitmpl" in ASCII).
const TEMPLATE_LOCK: i64 = 0x7769_6b69_746d_706c;

/// A fresh database on a test server; dropped with this value.
#[derive(Debug)]
pub struct ScratchDatabase {
    /// The server's URL as given: its maintenance database runs CREATE and DROP.
    server: String,
    name: String,
    url: String,
}

impl ScratchDatabase {
    /// A new, empty database (no schema) on the server at `server` (a URL or libpq's
    /// `key=value` form): for tests of migrations themselves.
    #[track_caller]
    pub fn empty(server: &str) -> Self {
        Self::create(server, None)
    }

    /// A new database with this build's schema and nothing in it: a copy of the server's
    /// template for the current schema version, made first if no process made it yet.
    #[track_caller]
    pub fn migrated(server: &str) -> Self {
        let template = template(server);
        Self::create(server, Some(&template))
    }

    #[track_caller]
    fn create(server: &str, template: Option<&str>) -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "wiki_test_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut admin = connect(server);
        // The name is fresh in this process; an earlier crashed run with the same pid left it.
        run(
            &mut admin,
            &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        );
        let copy = template.map_or_else(String::new, |template| format!(" TEMPLATE {template}"));
        run(&mut admin, &format!("CREATE DATABASE {name}{copy}"));
        ScratchDatabase {
            server: server.to_owned(),
            url: url_for(server, &name),
            name,
        }
    }

    /// The scratch database's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A plain client on the scratch database, for what a test does behind the store's back.
    #[track_caller]
    pub fn client(&self) -> postgres::Client {
        connect(&self.url)
    }
}

impl Drop for ScratchDatabase {
    fn drop(&mut self) {
        // FORCE ends the connections stores left behind (pools, listeners).
        if let Ok(mut admin) = postgres::Client::connect(&self.server, postgres::NoTls) {
            let _ = admin.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

/// The name of the template for the current schema version on `server`, made if absent: by a
/// store that is gone when it is copied (a template must have no connections then).
#[track_caller]
fn template(server: &str) -> String {
    let name = format!("wiki_test_template_v{}", latest(MIGRATIONS));
    let mut admin = connect(server);
    // Session-level: held until unlocked below or this connection closes (a crash included).
    run(
        &mut admin,
        &format!("SELECT pg_advisory_lock({TEMPLATE_LOCK})"),
    );
    let exists = admin
        .query_opt("SELECT 1 FROM pg_database WHERE datname = $1", &[&name])
        .unwrap_or_else(|error| panic!("test database: cannot look for {name}: {}", said(&error)));
    if exists.is_none() {
        // A template whose making was interrupted is made again: it is only named once done.
        let building = format!("{name}_building");
        run(
            &mut admin,
            &format!("DROP DATABASE IF EXISTS {building} WITH (FORCE)"),
        );
        run(&mut admin, &format!("CREATE DATABASE {building}"));
        let store = crate::PostgresStore::connect(&url_for(server, &building))
            .and_then(|store| store.check_connection().map(|()| store))
            .unwrap_or_else(|error| panic!("test database: cannot migrate {building}: {error}"));
        drop(store);
        // The store's change-feed thread lets go of its connection within a tick; do not wait.
        admin
            .execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE datname = $1 AND pid <> pg_backend_pid()",
                &[&building],
            )
            .unwrap_or_else(|error| {
                panic!("test database: cannot close {building}: {}", said(&error))
            });
        run(
            &mut admin,
            &format!("ALTER DATABASE {building} RENAME TO {name}"),
        );
    }
    run(
        &mut admin,
        &format!("SELECT pg_advisory_unlock({TEMPLATE_LOCK})"),
    );
    name
}

#[track_caller]
fn connect(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).unwrap_or_else(|error| {
        panic!(
            "test database: the server does not answer at {url}: {}",
            said(&error)
        )
    })
}

#[track_caller]
fn run(admin: &mut postgres::Client, statement: &str) {
    admin
        .batch_execute(statement)
        .unwrap_or_else(|error| panic!("test database: {statement}: {}", said(&error)));
}

/// What the server said (a bare `postgres::Error` displays as "db error").
fn said(error: &postgres::Error) -> String {
    error
        .as_db_error()
        .map_or_else(|| error.to_string(), ToString::to_string)
}

/// `server` with its database replaced by `name` (a URL, or libpq's `key=value` form).
pub fn url_for(server: &str, name: &str) -> String {
    let Some(scheme_end) = server.find("://").map(|at| at + 3) else {
        return format!("{server} dbname={name}");
    };
    let (head, query) = match server.split_once('?') {
        Some((head, query)) => (head, Some(query)),
        None => (server, None),
    };
    let path_start = head[scheme_end..]
        .find('/')
        .map_or(head.len(), |slash| scheme_end + slash);
    let mut url = format!("{}/{name}", &head[..path_start]);
    if let Some(query) = query {
        url.push('?');
        url.push_str(query);
    }
    url
}

#[cfg(test)]
mod tests {
    use super::url_for;

    #[test]
    fn the_database_of_a_url_or_a_key_value_string_is_replaced() {
        assert_eq!(
            url_for("postgres://u@127.0.0.1:5432/postgres", "x"),
            "postgres://u@127.0.0.1:5432/x"
        );
        assert_eq!(
            url_for("postgres://u@host/postgres?sslmode=disable", "x"),
            "postgres://u@host/x?sslmode=disable"
        );
        assert_eq!(url_for("postgres://u@host", "x"), "postgres://u@host/x");
        assert_eq!(
            url_for("host=/run/pg user=u", "x"),
            "host=/run/pg user=u dbname=x"
        );
    }
}
