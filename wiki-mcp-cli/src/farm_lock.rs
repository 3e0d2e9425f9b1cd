//! Who may use a SQLite farm's directory at once: any number of serving processes (`serve`,
//! `stdio`), or one command that replaces or moves the farm (`restore`, `migrate`), never both.
//!
//! An advisory lock on [`LOCK_FILE`] in the data directory, shared by each server and
//! exclusive for those commands. The operating system releases it when the process ends,
//! however it ends, so a crashed server leaves no stale lock. Admin commands (`token`, `config`,
//! `backup`, …) take none: they work beside a running server. A PostgreSQL farm needs none:
//! `migrate` reads only SQLite farms, and its database server arbitrates its own clients.

use std::fs::{File, TryLockError};
use std::path::Path;

use anyhow::{Context, Result, bail};

/// The lock's file in the data directory (empty; only its lock matters).
pub(crate) const LOCK_FILE: &str = "serving.lock";

/// A held lock on a farm's directory, released when dropped.
#[derive(Debug)]
pub(crate) struct FarmLock {
    _file: File,
}

impl FarmLock {
    /// Taken by a serving process for as long as it serves; refused while `restore` or
    /// `migrate` works on the farm.
    pub(crate) fn serving(dir: &Path) -> Result<FarmLock> {
        let file = open(dir)?;
        match file.try_lock_shared() {
            Ok(()) => Ok(FarmLock { _file: file }),
            Err(TryLockError::WouldBlock) => bail!(
                "the farm in {dir} is being restored or migrated (that command holds \
                 {dir}/{LOCK_FILE}): wait for it to finish, then start the server again",
                dir = dir.display()
            ),
            Err(TryLockError::Error(error)) => Err(error).context(locking(dir)),
        }
    }

    /// Taken by `command`, which must have the farm to itself: refused while a server serves
    /// it, saying how to stop that server.
    pub(crate) fn alone(dir: &Path, command: &str) -> Result<FarmLock> {
        let file = open(dir)?;
        match file.try_lock() {
            Ok(()) => Ok(FarmLock { _file: file }),
            Err(TryLockError::WouldBlock) => bail!(
                "the farm in {dir} is being served (a `wiki-mcp serve` or `stdio` process holds \
                 {dir}/{LOCK_FILE}), and `{command}` needs it unserved: stop that server first \
                 (Ctrl-C in its terminal, `kill -TERM <its pid>`, or `systemctl stop wiki-mcp`), \
                 then run `wiki-mcp {command}` again; `wiki-mcp backup` copies a served farm \
                 without stopping it",
                dir = dir.display()
            ),
            Err(TryLockError::Error(error)) => Err(error).context(locking(dir)),
        }
    }
}

fn open(dir: &Path) -> Result<File> {
    wiki_store::private_files::create_dir_all(dir)
        .with_context(|| format!("cannot create the data directory {}", dir.display()))?;
    wiki_store::private_files::append(&dir.join(LOCK_FILE)).with_context(|| locking(dir))
}

fn locking(dir: &Path) -> String {
    format!("cannot lock {}", dir.join(LOCK_FILE).display())
}
