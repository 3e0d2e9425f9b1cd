//! `wiki-mcp --data DIR migrate --to postgres://…`: the SQLite farm in DIR copied whole into an
//! empty PostgreSQL database, which several `serve` replicas can then share.
//!
//! The copy is `wiki_store::transfer::copy_farm`: one snapshot of the source, one transaction
//! in the target, committed only when every table's count matches, so a failure leaves the
//! target empty and the command can simply be run again. The link-signing key, a file beside a
//! SQLite farm, becomes the target's farm secret, so links printed before still open.

use std::io::IsTerminal as _;
use std::path::Path;
use std::time::UNIX_EPOCH;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use wiki_store::transfer::{BatchLimits, Copied, SecretOverride, TransferError, copy_farm};
use wiki_store::{PostgresStore, SqliteStore};
use wiki_tool_sdk::links::{LINK_KEY_SECRET, LinkKey};

use super::database::FarmTarget;
use super::serve::LINK_KEY_FILE;
use crate::database::{Database, DatabaseUrl};
use crate::farm;
use crate::farm_lock::FarmLock;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The empty PostgreSQL database to copy the farm into:
    /// postgres://USER:PASSWORD@HOST:PORT/DATABASE (its schema is created if it has none).
    #[arg(
        long,
        env = "WIKI_MCP_MIGRATE_TO",
        value_name = "URL",
        hide_env_values = true
    )]
    // Parsed after clap, so that a refused value (it may hold a password) is never echoed.
    to: String,
}

pub(crate) fn exec(farm: &FarmTarget, args: Args) -> Result<()> {
    let Database::Sqlite(dir) = farm.database() else {
        bail!(
            "migrate copies a SQLite farm: name it with --data DIR (not --database), and the \
             PostgreSQL database with --to"
        );
    };
    let url = match args.to.parse::<Database>()? {
        Database::Postgres(url) => url,
        Database::Sqlite(_) => {
            bail!("--to takes a postgres://… URL: migrate copies into PostgreSQL")
        }
    };
    if !farm::exists(dir) {
        bail!(
            "no farm in {dir}: check --data (or WIKI_MCP_DATA)",
            dir = dir.display()
        );
    }
    // Held until the copy is done: no server writes to the farm meanwhile, or starts.
    let _alone = FarmLock::alone(dir, "migrate")?;
    let source = SqliteStore::open(dir)
        .with_context(|| format!("cannot open the farm in {}", dir.display()))?;
    let secrets = link_key(dir)?;
    let target = PostgresStore::connect(url.expose())
        .with_context(|| format!("cannot open the database {url}"))?;

    // The bar draws on stderr (stdout keeps the report), and only on a terminal.
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} rows {msg} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let copied = copy_farm(
        &source,
        &target,
        &secrets,
        BatchLimits::default(),
        &mut |progress| {
            bar.set_length(progress.total);
            bar.set_position(progress.rows);
            bar.set_message(progress.table.kind);
        },
    );
    bar.finish_and_clear();
    let copied = copied.map_err(|error| failed(&url, error))?;
    let rows: u64 = copied.iter().map(|table| table.rows).sum();
    if !std::io::stderr().is_terminal() {
        eprintln!("migrate: copied {rows} rows in {} tables", copied.len());
    }
    report(dir, &url, &copied, !secrets.is_empty());
    Ok(())
}

/// The link-signing key of the farm in `dir`, as the secret replicas read it from the database;
/// none when the farm was never served over HTTP (the first replica then creates one).
fn link_key(dir: &Path) -> Result<Vec<SecretOverride>> {
    let path = dir.join(LINK_KEY_FILE);
    if !path.exists() {
        return Ok(Vec::new());
    }
    // Validates the key (length) as `serve` would; it exists, so nothing is created.
    LinkKey::load_or_create(&path)
        .with_context(|| format!("cannot load the link-signing key {}", path.display()))?;
    let value = std::fs::read(&path)
        .with_context(|| format!("cannot read the link-signing key {}", path.display()))?;
    let created_ms = std::fs::metadata(&path)
        .and_then(|metadata| metadata.modified())
        .ok()
        .and_then(|modified| modified.duration_since(UNIX_EPOCH).ok())
        .and_then(|since| i64::try_from(since.as_millis()).ok())
        .unwrap_or_default();
    Ok(vec![SecretOverride {
        name: LINK_KEY_SECRET.to_owned(),
        value,
        created_ms,
    }])
}

/// A failed copy as the operator reads it: nothing was committed, so running again is safe.
fn failed(url: &DatabaseUrl, error: TransferError) -> anyhow::Error {
    let hint = match &error {
        TransferError::TargetNotEmpty { .. } => String::new(),
        TransferError::Store(wiki_store::StoreError::Unavailable(_)) => format!(
            " (is the server running, and are the host, port, user and password of {url} \
             right?); nothing was written: run migrate again once it answers"
        ),
        _ => format!("; nothing was written to {url}: fix the cause and run migrate again"),
    };
    anyhow::Error::new(error).context(format!("cannot migrate the farm into {url}{hint}"))
}

fn report(dir: &Path, url: &DatabaseUrl, copied: &[Copied], link_key: bool) {
    println!(
        "Migrated the farm in {} to {url}; every count verified in the target:",
        dir.display()
    );
    let width = copied
        .iter()
        .map(|table| table.table.kind.len())
        .max()
        .unwrap_or(0);
    for table in copied {
        let note = if link_key && table.table.name == "farm_secrets" {
            format!(" (with the link-signing key from {LINK_KEY_FILE})")
        } else {
            String::new()
        };
        println!("  {:<width$}  {:>9}{note}", table.table.kind, table.rows);
    }
    println!("Serve it with: wiki-mcp --database URL serve (as many replicas as you need)");
}
