//! A scratch database on the PostgreSQL server the tests point at: created with the current
//! schema and no farm in it, dropped when the value is, whatever connections stores still hold
//! (pools, change-feed listeners).
//!
//! Creating the schema costs more than creating a database, so a process migrates one template
//! database once and copies it for each farm (`CREATE DATABASE .. TEMPLATE`); the suite runner
//! drops the template when the run ends.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use wiki_store::PostgresStore;

use super::setup;

/// This process's migrated template: its server and name, once made.
static TEMPLATE: Mutex<Option<(String, String)>> = Mutex::new(None);

/// One fresh database.
pub(super) struct ScratchDatabase {
    /// The server's URL as given: its maintenance database runs CREATE and DROP.
    server: String,
    name: String,
    url: String,
}

impl ScratchDatabase {
    /// A new, empty database on the server at `server`.
    #[track_caller]
    pub(super) fn create(server: &str) -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "wiki_farm_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut admin = setup(
            &format!("connect to the test server ({})", super::TEST_DATABASE_VAR),
            postgres::Client::connect(server, postgres::NoTls),
        );
        let template = template(server, &mut admin);
        // The name is fresh in this process; an earlier crashed run with the same pid left it.
        setup(
            "drop a stale test database",
            admin
                .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .map_err(said),
        );
        setup(
            "create a test database",
            admin
                .batch_execute(&format!("CREATE DATABASE {name} TEMPLATE {template}"))
                .map_err(said),
        );
        ScratchDatabase {
            server: server.to_owned(),
            url: url_for(server, &name),
            name,
        }
    }

    /// The database's URL.
    pub(super) fn url(&self) -> &str {
        &self.url
    }
}

/// The name of this process's template on `server`, migrated by a store that is gone (a
/// template must have no connections when it is copied), made on first use.
#[track_caller]
fn template(server: &str, admin: &mut postgres::Client) -> String {
    let mut made = TEMPLATE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, name)) = made.as_ref().filter(|(at, _)| at == server) {
        return name.clone();
    }
    let name = format!("wiki_farm_{}_template", std::process::id());
    setup(
        "create the template test database",
        admin
            .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .and_then(|()| admin.batch_execute(&format!("CREATE DATABASE {name}")))
            .map_err(said),
    );
    let store = setup(
        "create the schema in the template test database",
        PostgresStore::connect(&url_for(server, &name)),
    );
    setup("reach the template test database", store.check_connection());
    drop(store);
    // The store's change-feed thread lets go of its connection within a tick; do not wait.
    setup(
        "close the template test database's connections",
        admin
            .execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = $1 AND pid <> pg_backend_pid()",
                &[&name],
            )
            .map_err(said),
    );
    *made = Some((server.to_owned(), name.clone()));
    name
}

/// Drops this process's template, if one was made (the suite runner calls it at the end).
pub(super) fn drop_template() {
    let made = TEMPLATE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    if let Some((server, name)) = made
        && let Ok(mut admin) = postgres::Client::connect(&server, postgres::NoTls)
    {
        let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
    }
}

impl Drop for ScratchDatabase {
    fn drop(&mut self) {
        // FORCE ends the connections stores left open (a manager's background tasks may still
        // hold a clone of the store for a moment).
        if let Ok(mut admin) = postgres::Client::connect(&self.server, postgres::NoTls) {
            let _ = admin.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

/// What the server said (a bare `postgres::Error` displays as "db error").
fn said(error: postgres::Error) -> String {
    error
        .as_db_error()
        .map_or_else(|| error.to_string(), ToString::to_string)
}

/// `server` with its database replaced by `name` (a URL, or libpq's `key=value` form).
fn url_for(server: &str, name: &str) -> String {
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
