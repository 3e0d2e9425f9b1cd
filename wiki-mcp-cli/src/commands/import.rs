//! `wiki-mcp import DIR --wiki ID`: Markdown files into a wiki (idempotent on re-run).

use std::io::IsTerminal;
use std::path::PathBuf;

use crate::farm::CLI_AUTHOR;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use wiki_store::import::{ImportOptions, import_directory_with_progress};
use wiki_store::reference::SpacePath;

use super::database::FarmTarget;
use super::existing_wiki;

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

pub(crate) fn exec(farm: &FarmTarget, args: Args) -> Result<()> {
    let store = farm.open()?;
    let wiki = existing_wiki(&*store, &args.wiki)?;
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
    // The progress bar draws on stderr, so stdout keeps only the report. It draws only on a
    // terminal; a script or CI log gets one count line at the end instead.
    let progress = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    let mut counted = (0, 0);
    progress.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let report = import_directory_with_progress(&*store, &args.dir, &options, |done, total| {
        progress.set_length(total as u64);
        progress.set_position(done as u64);
        counted = (done, total);
    });
    progress.finish_and_clear();
    if !std::io::stderr().is_terminal() {
        let (done, total) = counted;
        eprintln!(
            "import: {done} of {total} files processed in {:.1} s",
            progress.elapsed().as_secs_f64()
        );
    }
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
