//! PostgreSQL: every test gets a scratch database of its own on the server that
//! `WIKI_MCP_TEST_DATABASE` points at (`tests/postgres/with-cluster.sh` starts a throwaway one),
//! created with the schema and dropped when the test ends.

use std::sync::Arc;

use wiki_store::{PostgresStore, Store, StoreConfig};

use crate::harness::{Backend, Database, Skip, TEST_DATABASE_VAR, required_env};

use wiki_store::postgres::scratch::ScratchDatabase;

/// The second backend; without a server its tests are reported as ignored, naming the variable.
pub(crate) const BACKEND: Backend = Backend {
    name: "postgres",
    database: fresh,
};

fn fresh() -> Result<Box<dyn Database>, Skip> {
    let server = required_env(TEST_DATABASE_VAR)?;
    Ok(Box::new(ScratchDatabase::migrated(&server)))
}

impl Database for ScratchDatabase {
    fn open(&self, config: StoreConfig) -> Arc<dyn Store> {
        Arc::new(PostgresStore::connect_with(self.url(), config).unwrap())
    }
}
