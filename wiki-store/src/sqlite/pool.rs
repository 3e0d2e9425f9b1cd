//! The connection pool: one writer connection behind a mutex and several WAL readers.
//!
//! SQLite allows one writer at a time; serializing writers in-process on a mutex avoids busy
//! retries between our own threads, and `busy_timeout` covers other processes. Readers never block
//! the writer in WAL mode. Each reader runs its closure in one read transaction, so multi-statement
//! reads see one snapshot.

use std::ops::{Deref, DerefMut};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use parking_lot::{Mutex, MutexGuard};
use rusqlite::{Connection, OpenFlags};

use crate::config::StoreConfig;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::migrations;
use crate::waits::Waits;
use crate::{PoolStats, StoreError};

pub(crate) struct Pool {
    writer: Mutex<Connection>,
    readers: Vec<Mutex<Connection>>,
    next_reader: AtomicUsize,
    /// Reads `PRAGMA data_version` only: a connection of its own, so the value moves on every
    /// commit made anywhere else, the writer above included.
    probe: Mutex<Probe>,
    /// How long a probe reading is reused ([`StoreConfig::commit_marker_window_ms`]).
    marker_window: Duration,
    /// Reads that found every reader busy, and writes that found the writer taken.
    waits: Waits,
}

/// How long a read of the commit marker is reused before the probe connection is asked again,
/// by default ([`StoreConfig::commit_marker_window_ms`] sets it per store).
///
/// Asking costs a read transaction's worth of file locking on the WAL index (a few `fcntl`
/// calls): under load that was 6-7% of a server's CPU, paid by every request. Reused for a
/// millisecond, it is paid at most a thousand times a second, and a commit of another process
/// is still seen by every request that arrives at least this long after it. Commits through
/// this pool's own writer are seen at once: releasing the writer forgets the reading.
pub const MARKER_WINDOW: Duration = Duration::from_millis(MARKER_WINDOW_MS as u64);

/// [`MARKER_WINDOW`] in milliseconds, the unit of [`StoreConfig`]'s durations.
pub const MARKER_WINDOW_MS: u32 = 1;

/// The probe connection and its latest reading.
struct Probe {
    conn: Connection,
    /// `data_version` and when it was asked for (before the read), while still reusable.
    last: Option<(Instant, u64)>,
}

/// The writer connection, held exclusively. Releasing it forgets the commit marker's latest
/// reading, so whatever it committed is seen by the next marker read, not a window later.
pub(crate) struct Writer<'a> {
    conn: MutexGuard<'a, Connection>,
    probe: &'a Mutex<Probe>,
}

impl Deref for Writer<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        &self.conn
    }
}

impl DerefMut for Writer<'_> {
    fn deref_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }
}

impl Drop for Writer<'_> {
    fn drop(&mut self) {
        // Runs before `conn` is released, after anything done with it was committed.
        self.probe.lock().last = None;
    }
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
            probe: Mutex::new(Probe {
                conn: probe,
                last: None,
            }),
            marker_window: Duration::from_millis(u64::from(config.commit_marker_window_ms)),
            waits: Waits::default(),
        })
    }

    /// The connections taken and free now (the readers and the writer), and the waits so far.
    pub(crate) fn stats(&self) -> PoolStats {
        let connections = self.readers.iter().chain(std::iter::once(&self.writer));
        let in_use = connections.filter(|conn| conn.is_locked()).count();
        let max = self.readers.len() + 1;
        let (waits, waited) = self.waits.read();
        PoolStats {
            max,
            in_use,
            idle: max - in_use,
            waits,
            waited,
        }
    }

    /// `PRAGMA data_version` of the probe connection, or its reading of less than the marker
    /// window ago when this pool's writer committed nothing since.
    pub(crate) fn data_version(&self) -> Result<u64, StoreError> {
        let mut probe = self.probe.lock();
        // Taken before the read: a commit after this instant may be missed by the reading, and
        // the window counts from here, so no commit is missed for longer than the window.
        let now = Instant::now();
        if let Some((asked, version)) = probe.last
            && now.duration_since(asked) < self.marker_window
        {
            return Ok(version);
        }
        let version: i64 = probe
            .conn
            .prepare_cached("PRAGMA data_version")
            .db()?
            .query_row([], |row| row.get(0))
            .db()?;
        let version = u64::try_from(version).unwrap_or_default();
        probe.last = Some((now, version));
        Ok(version)
    }

    /// The writer connection, exclusively.
    pub(crate) fn writer(&self) -> Writer<'_> {
        let conn = self.writer.try_lock().unwrap_or_else(|| {
            let waiting = Instant::now();
            let conn = self.writer.lock();
            self.waits.add(waiting.elapsed());
            conn
        });
        Writer {
            conn,
            probe: &self.probe,
        }
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
        let waiting = Instant::now();
        let conn = self.readers[start % self.readers.len()].lock();
        self.waits.add(waiting.elapsed());
        conn
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
    super::occurrences::register(conn).db()?;
    Ok(())
}
