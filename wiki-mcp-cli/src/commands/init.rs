//! `wiki-mcp init [--empty] [DIR]`: create a farm explicitly (in a data directory, or in the
//! empty database `--database` names: its schema, then the farm).

use std::path::PathBuf;

use crate::farm::{ADMIN_USER, Content};
use anyhow::{Result, bail};

use super::database::FarmTarget;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Create the main wiki and the `admin` user only, without the demo content.
    #[arg(long)]
    empty: bool,
    /// Where to create it (default: the --data directory).
    dir: Option<PathBuf>,
}

pub(crate) fn exec(farm: &FarmTarget, args: Args) -> Result<()> {
    let target = match args.dir {
        Some(_) if farm.is_shared() => {
            bail!("init takes no directory with --database (the farm goes into that database)")
        }
        Some(dir) => farm.in_dir(dir),
        None => farm.clone(),
    };
    let content = if args.empty {
        Content::Empty
    } else {
        Content::Demo
    };
    let store = target.create(content)?;
    let issued = store.create_token(ADMIN_USER, "init")?;
    println!("Created a farm in {}", target.database());
    println!(
        "Token of `{ADMIN_USER}` (shown once): {}",
        issued.token.expose()
    );
    Ok(())
}
