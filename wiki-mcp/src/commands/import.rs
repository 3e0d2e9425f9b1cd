//! `wiki-mcp import DIR --wiki ID`: Markdown files into a wiki (idempotent on re-run).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use wiki_mcp::farm::CLI_AUTHOR;
use wiki_store::import::{ImportOptions, import_directory};
use wiki_store::reference::SpacePath;

use super::{existing_wiki, open_farm};

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The directory of Markdown files (folders become spaces, index.md a space's home).
    dir: PathBuf,
    /// The wiki to import into.
    #[arg(long)]
    wiki: String,
    /// Import everything under this space instead of at the top level.
    #[arg(long)]
    space: Option<String>,
}

pub(crate) fn exec(data: &Path, args: Args) -> Result<()> {
    let store = open_farm(data)?;
    let wiki = existing_wiki(&store, &args.wiki)?;
    let root = args
        .space
        .as_deref()
        .map(SpacePath::parse)
        .transpose()
        .context("invalid --space")?;
    let options = ImportOptions {
        wiki,
        root,
        author: CLI_AUTHOR.to_owned(),
        comment: format!("Imported from {}", args.dir.display()),
    };
    // The progress display goes to stderr, so stdout keeps only the report.
    let progress = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    progress.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    progress.set_message(format!("importing {}", args.dir.display()));
    progress.enable_steady_tick(Duration::from_millis(100));
    let report = import_directory(&store, &args.dir, &options);
    progress.finish_and_clear();
    let report = report.with_context(|| format!("cannot import {}", args.dir.display()))?;
    println!(
        "Imported {}: {} created, {} updated, {} unchanged, {} skipped",
        args.dir.display(),
        report.created,
        report.updated,
        report.unchanged,
        report.skipped.len()
    );
    for (path, reason) in &report.skipped {
        println!("  skipped {}: {reason}", path.display());
    }
    Ok(())
}
