//! The connection pool: one writer connection behind a mutex and several WAL readers.
//!
//! SQLite allows one writer at a time; serializing writers in-process on a mutex avoids busy
//! retries between our own threads, and `busy_timeout` covers other processes. Readers never block
//! the writer in WAL mode. Each reader runs its closure in one read transaction, so multi-statement
//! reads see one snapshot.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use parking_lot::{Mutex, MutexGuard};
use rusqlite::{Connection, OpenFlags};

use crate::StoreError;
use crate::config::StoreConfig;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::migrations;

pub(crate) struct Pool {
    writer: Mutex<Connection>,
    readers: Vec<Mutex<Connection>>,
    next_reader: AtomicUsize,
    /// Reads `PRAGMA data_version` only: a connection of its own, so the value moves on every
    /// commit made anywhere else, the writer above included.
    probe: Mutex<Connection>,
}

impl Pool {
    /// Opens (creating if needed) the database file, migrates it and opens the readers.
    pub(crate) fn open(path: &Path, config: &StoreConfig) -> Result<Self, StoreError> {
        let mut writer = Connection::open(path).db()?;
        configure(&mut writer, config)?;
        let mode: String = writer
            .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
            .db()?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::backend(std::io::Error::other(format!(
                "the database refused WAL mode (journal_mode is {mode})"
            ))));
        }
        migrations::migrate(&mut writer)?;
        let open_reader = || -> Result<Connection, StoreError> {
            let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX
                | OpenFlags::SQLITE_OPEN_URI;
            let mut reader = Connection::open_with_flags(path, flags).db()?;
            configure(&mut reader, config)?;
            reader.pragma_update(None, "query_only", true).db()?;
            Ok(reader)
        };
        let mut readers = Vec::new();
        for _ in 0..config.pool_size.max(1) {
            readers.push(Mutex::new(open_reader()?));
        }
        let probe = open_reader()?;
        // Never wait on a lock here: a busy probe fails at once and its caller does the full
        // check instead.
        probe.busy_timeout(std::time::Duration::ZERO).db()?;
        Ok(Pool {
            writer: Mutex::new(writer),
            readers,
            next_reader: AtomicUsize::new(0),
            probe: Mutex::new(probe),
        })
    }

    /// `PRAGMA data_version` of the probe connection.
    pub(crate) fn data_version(&self) -> Result<u64, StoreError> {
        let conn = self.probe.lock();
        let version: i64 = conn
            .prepare_cached("PRAGMA data_version")
            .db()?
            .query_row([], |row| row.get(0))
            .db()?;
        Ok(u64::try_from(version).unwrap_or_default())
    }

    /// The writer connection, exclusively.
    pub(crate) fn writer(&self) -> MutexGuard<'_, Connection> {
        self.writer.lock()
    }

    /// Runs `f` in a read transaction on a free reader (or waits for one).
    pub(crate) fn read<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = self.reader();
        // Declared after the guard, so it is withdrawn before the connection is handed back.
        let _interrupt = crate::interrupt::register(|| {
            let handle = conn.get_interrupt_handle();
            move || handle.interrupt()
        })?;
        if !conn.is_autocommit() {
            // A closure panicked mid-read last time: end that transaction before starting anew.
            conn.prepare_cached("ROLLBACK").db()?.execute([]).db()?;
        }
        // Cached BEGIN/COMMIT statements: a read is often a single quick query, and re-parsing
        // the transaction statements each time would be a measurable part of it.
        conn.prepare_cached("BEGIN").db()?.execute([]).db()?;
        let value = f(&conn);
        let end = if value.is_ok() { "COMMIT" } else { "ROLLBACK" };
        conn.prepare_cached(end).db()?.execute([]).db()?;
        value
    }

    /// The first free reader, so a lone caller keeps reusing one connection and its warm page
    /// cache; under contention the others are used, and when all are busy the call waits.
    fn reader(&self) -> MutexGuard<'_, Connection> {
        for reader in &self.readers {
            if let Some(guard) = reader.try_lock() {
                return guard;
            }
        }
        let start = self.next_reader.fetch_add(1, Ordering::Relaxed);
        self.readers[start % self.readers.len()].lock()
    }
}

/// SQLite VM instructions between two checks of the interrupt scope by the progress handler.
/// A check is a thread-local read and an atomic load (a few nanoseconds) while a thousand VM
/// instructions take microseconds, so the overhead stays far below 1% and an interrupted
/// statement stops within microseconds of the next check.
const INTERRUPT_CHECK_OPS: std::ffi::c_int = 1000;

fn configure(conn: &mut Connection, config: &StoreConfig) -> Result<(), StoreError> {
    // `sqlite3_interrupt` reaches only the statements running when it is called; a statement
    // started later in the same checkout (the next one of a multi-statement read) is stopped
    // by this handler, which reads the fired flag of the scope open on the running thread.
    conn.progress_handler(INTERRUPT_CHECK_OPS, Some(crate::interrupt::fired))
        .db()?;
    conn.busy_timeout(std::time::Duration::from_millis(u64::from(
        config.lock_timeout_ms,
    )))
    .db()?;
    conn.pragma_update(None, "foreign_keys", true).db()?;
    conn.pragma_update(None, "synchronous", "NORMAL").db()?;
    conn.pragma_update(None, "temp_store", "MEMORY").db()?;
    conn.set_prepared_statement_cache_capacity(64);
    Ok(())
}
