//! The embedded SQLite backend (bundled SQLite, WAL, FTS5).
//!
//! Layout: `pool` (connections), `write` (transactions and events), `migrations` + `sql/` (schema),
//! then one file per aggregate implementing the row traits of `crate::flow` with its statements;
//! the store's methods are written once over `crate::backend::Backend`, which [`SqliteStore`]
//! implements here. No rule of its own: SQL, row decoding, transactions, the change feed, FTS5.

mod admin;
mod attachments;
mod backup;
mod changes;
mod config;
mod convert;
mod documents;
mod export;
mod hierarchy;
mod history;
mod identities;
mod leases;
mod links;
mod migrations;
mod object_query;
mod objects;
mod occurrences;
mod pool;
mod rights;
mod search;
mod secrets;
mod tokens;
mod trash;
mod users;
mod vectors;
mod wikis;
mod write;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use backup::{backup_database, check_copy};
pub use pool::{MARKER_WINDOW, MARKER_WINDOW_MS};

use crate::Result;
use crate::StoreError;
use crate::backend::Backend;
use crate::config::StoreConfig;
use crate::listeners::Listeners;
use convert::DbResultExt;
use pool::Pool;
use write::WriteTx;

/// The database file's name inside the data directory.
pub const DATABASE_FILE: &str = "wiki.db";

/// The FTS5 expression every search runs for the agent's `text`, and its words; `None` when the
/// text has no word (such a query matches nothing). Public only for the fuzz target that checks
/// it against a real FTS5 table (`fuzz/fuzz_targets/search_text.rs`).
#[doc(hidden)]
pub fn __fuzz_match_expression(text: &str) -> Option<(String, Vec<String>)> {
    match crate::fulltext::search_text(Some(text)) {
        crate::fulltext::SearchText::Words(words) => Some((
            search::match_expression(&words, crate::model::search::WordMatch::All),
            words,
        )),
        crate::fulltext::SearchText::Browse | crate::fulltext::SearchText::Nothing => None,
    }
}

/// The SQLite store. Cheap to clone; clones share the pool and the listeners.
#[derive(Clone)]
pub struct SqliteStore {
    inner: Arc<Inner>,
}

struct Inner {
    pool: Pool,
    listeners: Arc<Listeners>,
    config: StoreConfig,
    path: PathBuf,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore")
            .field("path", &self.inner.path)
            .finish_non_exhaustive()
    }
}

impl SqliteStore {
    /// Opens the store in `dir` with the default configuration, creating the directory (0700),
    /// the database (0600) and its schema if needed.
    pub fn open(dir: impl AsRef<Path>) -> Result<Self> {
        SqliteStore::open_with(dir, StoreConfig::default())
    }

    /// Opens the store in `dir` with `config`.
    pub fn open_with(dir: impl AsRef<Path>, config: StoreConfig) -> Result<Self> {
        let dir = dir.as_ref();
        crate::private_files::create_dir_all(dir).map_err(StoreError::backend)?;
        let path = dir.join(DATABASE_FILE);
        // Made before SQLite opens it, which gives the `-wal` and `-shm` files beside it the
        // same owner-only mode.
        crate::private_files::create_if_absent(&path).map_err(StoreError::backend)?;
        let pool = Pool::open(&path, &config)?;
        Ok(SqliteStore {
            inner: Arc::new(Inner {
                pool,
                listeners: Arc::default(),
                config,
                path,
            }),
        })
    }

    /// The configuration the store was opened with.
    pub fn config(&self) -> &StoreConfig {
        &self.inner.config
    }

    /// The database file.
    pub fn database_path(&self) -> &Path {
        &self.inner.path
    }

    /// Checks the database file and the full-text index against the documents. Returns the
    /// problems found (empty when all is well).
    pub fn integrity_check(&self) -> Result<Vec<String>> {
        let mut problems: Vec<String> = self.pool().read(|conn| {
            conn.prepare("PRAGMA integrity_check")
                .db()?
                .query_map([], |row| row.get::<_, String>(0))
                .db()?
                .collect::<rusqlite::Result<_>>()
                .db()
        })?;
        problems.retain(|line| line != "ok");
        // The FTS check compares the index with the documents table; it runs on the writer.
        let conn = self.pool().writer();
        if let Err(error) = conn.execute(
            "INSERT INTO documents_fts (documents_fts, rank) VALUES ('integrity-check', 1)",
            [],
        ) {
            problems.push(format!("full-text index: {error}"));
        }
        Ok(problems)
    }

    pub(crate) fn pool(&self) -> &Pool {
        &self.inner.pool
    }
}

impl Backend for SqliteStore {
    type Read<'c> = &'c rusqlite::Connection;
    type Write<'t> = WriteTx<'t>;

    fn config(&self) -> &StoreConfig {
        &self.inner.config
    }

    /// A read transaction on a reader connection.
    fn read<T>(&self, mut f: impl FnMut(&mut Self::Read<'_>) -> Result<T>) -> Result<T> {
        self.inner.pool.read(|mut conn| f(&mut conn))
    }

    /// Every SQLite read is one read transaction, so one snapshot already.
    fn snapshot<T>(&self, f: impl FnMut(&mut Self::Read<'_>) -> Result<T>) -> Result<T> {
        Backend::read(self, f)
    }

    /// One `IMMEDIATE` transaction on the writer connection. An `Err` from `f` rolls everything
    /// back, and so does an interrupt ([`crate::interrupt`]) that comes before the commit.
    fn write<T>(&self, mut f: impl FnMut(&mut Self::Write<'_>) -> Result<T>) -> Result<T> {
        let (value, seq, events) = {
            let mut conn = self.inner.pool.writer();
            // Declared after the guard, so it is withdrawn before the writer is released.
            let handle = conn.get_interrupt_handle();
            let _interrupt = crate::interrupt::register(move || move || handle.interrupt())?;
            let mut tx = WriteTx::begin(&mut conn, &self.inner.config.clock)?;
            let value = f(&mut tx)?;
            let (seq, events) = tx.commit()?;
            (value, seq, events)
        };
        self.inner.listeners.publish_committed(seq, events);
        Ok(value)
    }

    fn listeners(&self) -> &Arc<Listeners> {
        &self.inner.listeners
    }

    /// SQLite's `PRAGMA data_version` on a dedicated connection: it moves whenever another
    /// connection commits (this process's writer, or another process), and reading it touches
    /// only the WAL index in shared memory (no query, no disk I/O), under file locks. A reading
    /// is reused for the store's marker window ([`crate::StoreConfig::commit_marker_window_ms`],
    /// by default [`crate::sqlite::MARKER_WINDOW`]) unless this store's writer committed since,
    /// so another process's commit shows at most that late.
    fn commit_marker(&self) -> Result<u64> {
        self.inner.pool.data_version()
    }

    fn pool_stats(&self) -> crate::PoolStats {
        self.inner.pool.stats()
    }
}
