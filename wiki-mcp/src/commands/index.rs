//! `wiki-mcp index rebuild|status`: the semantic index of each wiki.
//!
//! `rebuild` drops a wiki's vectors and embeds every page again, with a progress bar on a
//! terminal and a final count line either way. A running server keeps answering meanwhile (rows
//! not yet rebuilt are found by keywords only, and its tools say how far behind the index is);
//! its own indexer may embed some of the same rows, which is harmless. `status` says, per wiki,
//! how many chunks are indexed and how many pages the index is behind on.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use semantic_search::{REBUILD_ROWS, SemanticIndex};
use wiki_store::Store;
use wiki_store::model::wiki::WikiId;

use wiki_mcp::clap::{self, FromArgMatches, Subcommand};
use wiki_mcp::extension::{Extension, Farm, existing_wiki, main_first};

#[derive(Debug, Subcommand)]
enum Command {
    /// Drop and rebuild the semantic index of one wiki, or of every wiki.
    Rebuild {
        /// The wiki (default: every wiki).
        #[arg(long)]
        wiki: Option<String>,
        /// The model directory (default: WIKI_MCP_MODEL_DIR, else <data>/models/all-MiniLM-L6-v2).
        #[arg(long, value_name = "DIR")]
        model_dir: Option<PathBuf>,
    },
    /// Indexed chunks and pages still to index, per wiki.
    Status {
        /// The wiki (default: every wiki).
        #[arg(long)]
        wiki: Option<String>,
    },
}

/// `wiki-mcp index`, for [`wiki_mcp::main_with`].
pub(crate) const EXTENSION: Extension = Extension {
    command: || {
        Command::augment_subcommands(clap::Command::new("index"))
            .about("The semantic index: rebuild, status")
            .subcommand_required(true)
    },
    run: |matches, farm| exec(farm, Command::from_arg_matches(matches)?),
};

fn exec(farm: &Farm<'_>, command: Command) -> Result<()> {
    let store = farm.open()?;
    match command {
        Command::Rebuild { wiki, model_dir } => {
            let index = SemanticIndex::load(model_dir.as_deref(), farm.data_dir());
            if let Some(reason) = index.missing_model() {
                bail!("{reason}");
            }
            for wiki in wikis(&*store, wiki)? {
                rebuild(&*store, &index, &wiki)?;
            }
        }
        Command::Status { wiki } => {
            println!("WIKI\tCHUNKS\tPAGES BEHIND");
            for wiki in wikis(&*store, wiki)? {
                let mut chunks = 0u64;
                store.scan_vectors(&SemanticIndex::store_index(&wiki), &mut |_| {
                    chunks += 1;
                    true
                })?;
                let behind = SemanticIndex::behind(&*store, &wiki)?;
                println!("{wiki}\t{chunks}\t{behind}");
            }
        }
    }
    Ok(())
}

/// The wiki named, or every wiki with the main one first.
fn wikis(store: &dyn Store, wiki: Option<String>) -> Result<Vec<WikiId>> {
    Ok(match wiki {
        Some(id) => vec![existing_wiki(store, &id)?],
        None => main_first(store.list_wikis()?.into_iter().map(|wiki| wiki.id)),
    })
}

fn rebuild(store: &dyn Store, index: &SemanticIndex, wiki: &WikiId) -> Result<()> {
    let started = Instant::now();
    store.clear_vectors(&SemanticIndex::store_index(wiki))?;
    let total = SemanticIndex::behind(store, wiki)?;
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    }
    .with_style(
        ProgressStyle::with_template("{prefix} [{bar:40}] {pos}/{len} pages, {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_prefix(wiki.to_string());
    let (mut pages, mut chunks) = (0u64, 0usize);
    loop {
        let done = index.catch_up(store, wiki, REBUILD_ROWS)?;
        pages += done.rows as u64;
        chunks += done.embedded + done.reused;
        bar.inc(done.rows as u64);
        if done.remaining == 0 || done.rows == 0 {
            break;
        }
    }
    bar.finish_and_clear();
    println!(
        "{wiki}: indexed {pages} pages ({chunks} chunks) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
