//! `wiki-mcp --data DIR backup --to PATH`: a consistent copy of a SQLite farm, taken while it is
//! served (`wiki_store::sqlite::backup_database`: one snapshot, the server's writes neither
//! waiting nor torn), with the link-signing key beside it, so links printed before still open
//! after a restore. The embedding model (`DIR/models`) is not copied: it is a download, not
//! data. A PostgreSQL farm is backed up with PostgreSQL's own tools (docs/backup.md).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use wiki_store::sqlite::DATABASE_FILE;

use super::database::FarmTarget;
use super::serve::LINK_KEY_FILE;
use crate::database::Database;
use crate::farm;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The directory to write the backup to: a new one, or an empty one (a backup never
    /// overwrites another).
    #[arg(long, value_name = "PATH")]
    to: PathBuf,
}

pub(crate) fn exec(farm: &FarmTarget, args: Args) -> Result<()> {
    let Database::Sqlite(dir) = farm.database() else {
        bail!(
            "backup copies a SQLite farm (--data DIR); back a PostgreSQL farm up with \
             `pg_dump --format=custom --file wiki.dump URL` (docs/backup.md)"
        );
    };
    if !farm::exists(dir) {
        bail!(
            "no farm in {dir}: check --data (or WIKI_MCP_DATA)",
            dir = dir.display()
        );
    }
    let created = prepare(&args.to)?;
    let written = write(dir, &args.to);
    if let Err(error) = written {
        // Only what this command made goes: the backup's files, and its directory if new.
        for name in [DATABASE_FILE, LINK_KEY_FILE] {
            let _ = std::fs::remove_file(args.to.join(name));
        }
        if created {
            let _ = std::fs::remove_dir(&args.to);
        }
        return Err(error);
    }
    println!(
        "backed up the farm in {} to {}; restore it with `wiki-mcp --data DIR restore --from {}`",
        dir.display(),
        args.to.display(),
        args.to.display()
    );
    Ok(())
}

/// Makes the backup's directory, or accepts an empty one; says whether it made it.
fn prepare(to: &Path) -> Result<bool> {
    match std::fs::read_dir(to) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                bail!(
                    "{} is not empty: give a new directory (a backup never overwrites another)",
                    to.display()
                );
            }
            Ok(false)
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            wiki_store::private_files::create_dir_all(to)
                .with_context(|| format!("cannot create {}", to.display()))?;
            Ok(true)
        }
        Err(error) => Err(error).with_context(|| format!("cannot read {}", to.display())),
    }
}

fn write(dir: &Path, to: &Path) -> Result<()> {
    wiki_store::sqlite::backup_database(&dir.join(DATABASE_FILE), &to.join(DATABASE_FILE))
        .with_context(|| format!("cannot copy the database of the farm in {}", dir.display()))?;
    let key = dir.join(LINK_KEY_FILE);
    if key.exists() {
        super::restore::copy_private(&key, &to.join(LINK_KEY_FILE))?;
    }
    Ok(())
}
