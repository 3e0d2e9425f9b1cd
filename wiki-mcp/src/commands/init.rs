//! `wiki-mcp init [--empty] [DIR]`: create a farm explicitly.

use std::path::{Path, PathBuf};

use crate::farm::{self, ADMIN_USER, Content};
use anyhow::Result;
use wiki_store::TokenStore;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Create the main wiki and the `admin` user only, without the demo content.
    #[arg(long)]
    empty: bool,
    /// Where to create it (default: the --data directory).
    dir: Option<PathBuf>,
}

pub(crate) fn exec(data: &Path, args: Args) -> Result<()> {
    let dir = args.dir.as_deref().unwrap_or(data);
    let content = if args.empty {
        Content::Empty
    } else {
        Content::Demo
    };
    let store = farm::create(dir, content)?;
    let issued = store.create_token(ADMIN_USER, "init")?;
    println!("Created a farm in {}", dir.display());
    println!(
        "Token of `{ADMIN_USER}` (shown once): {}",
        issued.token.expose()
    );
    Ok(())
}
