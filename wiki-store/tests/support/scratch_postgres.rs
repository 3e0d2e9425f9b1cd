//! A scratch database on the PostgreSQL server a test run points at: created empty, dropped
//! when the value is dropped, whatever connections are still open (shared by the conformance
//! suite's PostgreSQL backend and the PostgreSQL-only tests).

use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh database; dropped with this value.
pub(crate) struct ScratchDatabase {
    /// The server's URL as given (the maintenance database it names runs CREATE and DROP).
    server: String,
    name: String,
    url: String,
}

impl ScratchDatabase {
    /// A new, empty database on the server at `server` (a URL or libpq's key=value form).
    pub(crate) fn create(server: &str) -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "wiki_test_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut admin = admin(server);
        // The name is fresh for this process; a crashed earlier run with the same pid left it.
        admin
            .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .unwrap();
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        ScratchDatabase {
            server: server.to_owned(),
            url: url_for(server, &name),
            name,
        }
    }

    /// The scratch database's URL.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// The database's name.
    #[allow(dead_code, reason = "used by the PostgreSQL-only tests, not the suite")]
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// A plain client on the scratch database, for what a test does behind the store's back.
    #[allow(dead_code, reason = "used by the PostgreSQL-only tests, not the suite")]
    pub(crate) fn client(&self) -> postgres::Client {
        admin(&self.url)
    }
}

fn admin(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls)
        .unwrap_or_else(|e| panic!("the test server does not answer at {url}: {e}"))
}

/// `server` with its database replaced by `name`.
pub(crate) fn url_for(server: &str, name: &str) -> String {
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
