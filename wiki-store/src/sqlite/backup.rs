//! Copies of a SQLite farm's database: a consistent one taken while a server writes to it
//! ([`backup_database`]), and the check a copy passes before it replaces a farm
//! ([`check_copy`]).
//!
//! The copy is `VACUUM INTO`: it reads one snapshot of the database (one read transaction,
//! which in WAL mode neither waits for the server's writer nor blocks it) and writes it out as a
//! new, compact database file, the full-text index's tables included. A file copy of `wiki.db`
//! beside a live `-wal` file is not a backup: it misses, or tears, what the log holds.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::sqlite::convert::DbResultExt;
use crate::{Result, StoreError};

/// How long the copy waits for a lock the server holds for a moment (a checkpoint).
const BUSY_WAIT: Duration = Duration::from_secs(30);

/// Writes a consistent copy of the database `source` (a farm's `wiki.db`) to `target`, which
/// must not exist; it is created readable by its owner only. A failed copy leaves no `target`.
pub fn backup_database(source: &Path, target: &Path) -> Result<()> {
    // The source is never written: a read-only connection cannot migrate or checkpoint it by
    // accident.
    let conn = Connection::open_with_flags(
        source,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .db()?;
    conn.busy_timeout(BUSY_WAIT).db()?;
    // `VACUUM INTO` fills an empty file: made first, so its mode is the owner's alone.
    crate::private_files::create_new(target).map_err(StoreError::backend)?;
    let target_text = target.to_str().ok_or_else(|| {
        StoreError::backend(std::io::Error::other(
            "the backup's path is not valid UTF-8: choose another",
        ))
    })?;
    let copied = conn
        .execute("VACUUM INTO ?1", [target_text])
        .db()
        .and_then(|_| {
            std::fs::File::open(target)
                .and_then(|file| file.sync_all())
                .map_err(StoreError::backend)
        });
    if let Err(error) = copied {
        // Made by this call: removing it loses nothing.
        let _ = std::fs::remove_file(target);
        return Err(error);
    }
    Ok(())
}

/// Checks that `file` is a whole farm database this build can open: SQLite's integrity check
/// passes and its schema version is one this build knows. Returns the problems (empty when it
/// is fit to restore).
pub fn check_copy(file: &Path) -> Result<Vec<String>> {
    let conn = Connection::open_with_flags(
        file,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .db()?;
    let mut problems: Vec<String> = conn
        .prepare("PRAGMA integrity_check")
        .db()?
        .query_map([], |row| row.get::<_, String>(0))
        .db()?
        .collect::<rusqlite::Result<_>>()
        .db()?;
    problems.retain(|line| line != "ok");
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .db()?;
    let newest = crate::sqlite::migrations::MIGRATIONS.len() as i64;
    if version == 0 {
        problems.push("it holds no farm (no schema)".to_owned());
    } else if version > newest {
        problems.push(format!(
            "its schema (version {version}) is newer than this build's ({newest}): restore it \
             with the release that made it"
        ));
    }
    Ok(problems)
}
