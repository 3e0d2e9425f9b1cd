//! SQLite: every test gets its own data directory in a fresh temporary directory (WAL, as in
//! production).

use std::sync::Arc;

use tempfile::TempDir;
use wiki_store::{SqliteStore, Store, StoreConfig};

use crate::harness::{Backend, Database, Skip};

/// The embedded backend; it needs nothing, so it never skips.
pub(crate) const BACKEND: Backend = Backend {
    name: "sqlite",
    database: fresh,
};

struct SqliteDatabase {
    dir: TempDir,
}

fn fresh() -> Result<Box<dyn Database>, Skip> {
    Ok(Box::new(SqliteDatabase {
        dir: tempfile::tempdir().unwrap(),
    }))
}

impl Database for SqliteDatabase {
    fn open(&self, config: StoreConfig) -> Arc<dyn Store> {
        Arc::new(SqliteStore::open_with(self.dir.path().join("data"), config).unwrap())
    }
}
