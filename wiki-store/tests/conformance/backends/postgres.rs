//! PostgreSQL: every test gets a scratch database of its own on the server that
//! `WIKI_MCP_TEST_DATABASE` points at (`tests/postgres/with-cluster.sh` starts a throwaway one),
//! created empty and dropped when the test ends, whatever connections are still open.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use wiki_store::{PostgresStore, Store, StoreConfig};

use crate::harness::{Backend, Database, Skip, TEST_DATABASE_VAR, required_env};

/// The second backend; without a server its tests are reported as ignored, naming the variable.
pub(crate) const BACKEND: Backend = Backend {
    name: "postgres",
    database: fresh,
};

/// A scratch database, dropped with this value.
pub(crate) struct PostgresDatabase {
    /// The server's URL as given (the maintenance database it names runs the CREATE/DROP).
    server: String,
    name: String,
    /// The scratch database's URL.
    url: String,
}

fn fresh() -> Result<Box<dyn Database>, Skip> {
    let server = required_env(TEST_DATABASE_VAR)?;
    Ok(Box::new(PostgresDatabase::create(&server)))
}

impl PostgresDatabase {
    /// A new, empty database on the server at `server`.
    pub(crate) fn create(server: &str) -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "wiki_test_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut admin = postgres::Client::connect(server, postgres::NoTls).unwrap_or_else(|e| {
            panic!("{TEST_DATABASE_VAR} names a server that does not answer: {e}")
        });
        // The name is fresh for this process; a crashed earlier run with the same pid left it.
        admin
            .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .unwrap();
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        PostgresDatabase {
            server: server.to_owned(),
            url: url_for(server, &name),
            name,
        }
    }
}

/// `server` with its database replaced by `name` (URL form, or libpq's key=value form).
fn url_for(server: &str, name: &str) -> String {
    if server.contains("://") {
        let (head, query) = match server.split_once('?') {
            Some((head, query)) => (head, Some(query)),
            None => (server, None),
        };
        let authority_end = head
            .find("://")
            .map(|at| at + 3)
            .and_then(|start| head[start..].find('/').map(|slash| start + slash))
            .unwrap_or(head.len());
        let mut url = format!("{}/{name}", &head[..authority_end]);
        if let Some(query) = query {
            url.push('?');
            url.push_str(query);
        }
        url
    } else {
        format!("{server} dbname={name}")
    }
}

impl Database for PostgresDatabase {
    fn open(&self, config: StoreConfig) -> Arc<dyn Store> {
        Arc::new(PostgresStore::connect_with(&self.url, config).unwrap())
    }
}

impl Drop for PostgresDatabase {
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
