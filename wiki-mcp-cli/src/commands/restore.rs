//! `wiki-mcp --data DIR restore --from PATH`: a backup (`wiki-mcp backup --to PATH`) becomes the
//! farm in DIR. The copy is checked first (SQLite's integrity check, a schema this build knows),
//! written beside the farm under a temporary name and renamed into place, so DIR never holds a
//! half-restored farm; no server may serve DIR meanwhile ([`FarmLock::alone`]). A farm DIR
//! already holds is replaced only with `--replace`, and its files are kept aside, not deleted.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};
use wiki_store::sqlite::DATABASE_FILE;

use super::database::FarmTarget;
use super::serve::LINK_KEY_FILE;
use crate::database::Database;
use crate::farm;
use crate::farm_lock::FarmLock;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The backup: a directory `wiki-mcp backup --to` wrote.
    #[arg(long, value_name = "PATH")]
    from: PathBuf,
    /// Replace the farm the data directory holds; its files are moved to
    /// `DIR/replaced-<unix time>/`, not deleted.
    #[arg(long)]
    replace: bool,
}

/// The suffix of a file being restored, until it is renamed into place.
const RESTORING: &str = ".restoring";

pub(crate) fn exec(farm: &FarmTarget, args: Args) -> Result<()> {
    let Database::Sqlite(dir) = farm.database() else {
        bail!(
            "restore replaces a SQLite farm (--data DIR); restore a PostgreSQL farm with \
             `pg_restore` into an empty database (docs/backup.md)"
        );
    };
    let database = args.from.join(DATABASE_FILE);
    if !database.is_file() {
        bail!(
            "{} holds no {DATABASE_FILE}: give a directory `wiki-mcp backup --to` wrote",
            args.from.display()
        );
    }
    let problems = wiki_store::sqlite::check_copy(&database)
        .with_context(|| format!("cannot read the backup {}", database.display()))?;
    if !problems.is_empty() {
        bail!(
            "the backup {} cannot be restored: {}",
            database.display(),
            problems.join("; ")
        );
    }
    let _alone = FarmLock::alone(dir, "restore")?;
    if farm::exists(dir) && !args.replace {
        bail!(
            "{dir} already holds a farm: give --replace to replace it (its files are kept in \
             {dir}/replaced-<time>/), or restore into another --data directory",
            dir = dir.display()
        );
    }
    let key = args.from.join(LINK_KEY_FILE);
    let mut restoring = vec![DATABASE_FILE];
    if key.is_file() {
        restoring.push(LINK_KEY_FILE);
    }
    for name in &restoring {
        let staged = dir.join(format!("{name}{RESTORING}"));
        // A leftover of an interrupted restore: never part of a farm.
        let _ = std::fs::remove_file(&staged);
        copy_private(&args.from.join(name), &staged)?;
    }
    let aside = set_aside(dir)?;
    for name in &restoring {
        std::fs::rename(dir.join(format!("{name}{RESTORING}")), dir.join(name))
            .with_context(|| format!("cannot move the restored {name} into {}", dir.display()))?;
    }
    let mut out = std::io::stdout().lock();
    write!(
        out,
        "restored the backup {} into {}",
        args.from.display(),
        dir.display()
    )?;
    match aside {
        Some(aside) => writeln!(
            out,
            "; the replaced farm's files are in {}",
            aside.display()
        )?,
        None => writeln!(out)?,
    }
    Ok(())
}

/// Moves the farm's files DIR holds (database, its log and index, the link key) into
/// `DIR/replaced-<unix time>/`, together, so they stay a consistent set; `None` when there were
/// none.
fn set_aside(dir: &Path) -> Result<Option<PathBuf>> {
    let present: Vec<&str> = [DATABASE_FILE, "wiki.db-wal", "wiki.db-shm", LINK_KEY_FILE]
        .into_iter()
        .filter(|name| dir.join(name).exists())
        .collect();
    if present.is_empty() {
        return Ok(None);
    }
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|since| since.as_secs())
        .unwrap_or_default();
    let aside = dir.join(format!("replaced-{now}"));
    wiki_store::private_files::create_dir_all(&aside)
        .with_context(|| format!("cannot create {}", aside.display()))?;
    for name in present {
        std::fs::rename(dir.join(name), aside.join(name))
            .with_context(|| format!("cannot move {name} into {}", aside.display()))?;
    }
    Ok(Some(aside))
}

/// Copies `from` to the new file `to` (0600), synced to disk.
pub(crate) fn copy_private(from: &Path, to: &Path) -> Result<()> {
    let mut source =
        std::fs::File::open(from).with_context(|| format!("cannot read {}", from.display()))?;
    let mut target = wiki_store::private_files::create_new(to)
        .with_context(|| format!("cannot create {}", to.display()))?;
    std::io::copy(&mut source, &mut target)
        .and_then(|_| target.sync_all())
        .with_context(|| format!("cannot write {}", to.display()))
}
