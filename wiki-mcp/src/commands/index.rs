//! `wiki-mcp index rebuild|status`: the semantic index of each wiki.
//!
//! `rebuild` drops a wiki's vectors and embeds every page again, with a progress bar on a
//! terminal and a final count line either way. It indexes as the farm's indexer does, so it
//! takes the indexer's store lease first ([`semantic_search::INDEXER_LEASE`], renewed before
//! every step, released at the end): a server's indexer embedding the same rows at the same
//! time would race it on the same vector rows. While a server holds the lease, rebuild waits
//! (`--wait`, 20 s by default: long enough for a killed server's lease to expire) and then
//! refuses, changing nothing, saying to stop the server (or let its indexer catch up). A
//! server started meanwhile serves queries and follows the stored vectors; it indexes again
//! once the rebuild released the lease. `status` says, per wiki, how many chunks are indexed
//! and how many pages the index is behind on.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use semantic_search::{INDEXER_LEASE, INDEXER_LEASE_TTL, REBUILD_ROWS, SemanticIndex};
use wiki_store::Store;
use wiki_store::model::wiki::WikiId;

use wiki_mcp_cli::clap::{self, FromArgMatches, Subcommand};
use wiki_mcp_cli::extension::{Extension, Farm, existing_wiki, main_first};

#[derive(Debug, Subcommand)]
enum Command {
    /// Drop and rebuild the semantic index of one wiki, or of every wiki.
    Rebuild {
        /// The wiki (default: every wiki).
        #[arg(long)]
        wiki: Option<String>,
        /// The model directory (default: WIKI_MCP_MODEL_DIR, else models/all-MiniLM-L6-v2 in the
        /// data directory).
        #[arg(long, value_name = "DIR")]
        model_dir: Option<PathBuf>,
        /// How long to wait for a server's indexer to give up its lease before refusing.
        #[arg(long, value_name = "SECONDS", default_value_t = 20)]
        wait: u64,
    },
    /// Indexed chunks and pages still to index, per wiki.
    Status {
        /// The wiki (default: every wiki).
        #[arg(long)]
        wiki: Option<String>,
    },
}

/// `wiki-mcp index`, for [`wiki_mcp_cli::main_with`].
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
        Command::Rebuild {
            wiki,
            model_dir,
            wait,
        } => {
            let wikis = wikis(&*store, wiki)?;
            let lease = Lease::take(&*store, Duration::from_secs(wait))?;
            let index = SemanticIndex::load(model_dir.as_deref(), farm.data_dir());
            if let Some(reason) = index.missing_model() {
                bail!("{reason}");
            }
            for wiki in wikis {
                rebuild(&*store, &index, &wiki, &lease)?;
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

/// The farm indexer's lease, held by this command for as long as it rebuilds; released when
/// dropped (an error included), so a server's indexer takes over at its next ask.
struct Lease<'a> {
    store: &'a dyn Store,
    holder: String,
}

impl<'a> Lease<'a> {
    /// Takes the lease, asking once a second for up to `wait`; refuses, naming what to do,
    /// while another process (a server's indexer, another rebuild) holds it.
    fn take(store: &'a dyn Store, wait: Duration) -> Result<Self> {
        let holder = holder_id();
        let deadline = Instant::now() + wait;
        loop {
            if store.try_lease(INDEXER_LEASE, &holder, INDEXER_LEASE_TTL)? {
                return Ok(Self { store, holder });
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                bail!(
                    "another process indexes this farm: a running `wiki-mcp serve` (or another \
                     rebuild) holds the semantic indexer's lease, and a rebuild now would race it \
                     on the same vectors. Nothing was changed. Stop the server(s) of this farm \
                     and run the rebuild again, or let the server's indexer catch up by itself \
                     (`wiki-mcp index status` shows how far behind it is). A server that was \
                     killed gives the lease up within {} s; `--wait SECONDS` waits longer.",
                    INDEXER_LEASE_TTL.as_secs()
                );
            }
            std::thread::sleep(left.min(Duration::from_secs(1)));
        }
    }

    /// Renews the lease before a step: a step is far shorter than the lease lasts, but a
    /// stalled one may have let another process take it, and then this rebuild stops.
    fn renew(&self) -> Result<()> {
        if self
            .store
            .try_lease(INDEXER_LEASE, &self.holder, INDEXER_LEASE_TTL)?
        {
            return Ok(());
        }
        bail!(
            "the rebuild stalled for longer than the semantic indexer's lease lasts ({} s) and \
             another process (a server) took it over; the rebuild stopped so as not to race it. \
             Stop the server(s) of this farm and run the rebuild again.",
            INDEXER_LEASE_TTL.as_secs()
        )
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if let Err(error) = self.store.release_lease(INDEXER_LEASE, &self.holder) {
            tracing::warn!(%error, "could not release the semantic indexer's lease; it expires by itself");
        }
    }
}

/// A holder id of this command: its pid for an operator reading the lease, and the time it
/// started so that two machines' processes of one pid never share it.
fn holder_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos());
    format!("index-rebuild-pid{}-{nanos:x}", std::process::id())
}

fn rebuild(
    store: &dyn Store,
    index: &SemanticIndex,
    wiki: &WikiId,
    lease: &Lease<'_>,
) -> Result<()> {
    let started = Instant::now();
    lease.renew()?;
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
        lease.renew()?;
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
