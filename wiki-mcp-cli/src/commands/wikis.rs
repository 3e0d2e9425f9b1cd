//! `wiki-mcp wikis create|list`.

use anyhow::{Context, Result};
use wiki_store::model::wiki::WikiId;

use super::database::FarmTarget;

#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Create a wiki (its endpoint is enabled with the default configuration).
    Create {
        /// The id: lowercase letters, digits, `-` and `_`.
        id: String,
        /// The name shown to people.
        #[arg(long)]
        name: Option<String>,
    },
    /// List the wikis.
    List,
}

pub(crate) fn exec(farm: &FarmTarget, command: Command) -> Result<()> {
    let store = farm.open()?;
    match command {
        Command::Create { id, name } => {
            let wiki = WikiId::new(&id).with_context(|| format!("`{id}` is not a wiki id"))?;
            let created = store
                .create_wiki(&wiki, name.as_deref().unwrap_or(&id))
                .with_context(|| format!("cannot create the wiki `{id}`"))?;
            println!("Created wiki {} ({})", created.id, created.pretty_name);
        }
        Command::List => {
            for wiki in store.list_wikis()? {
                println!("{:<20} {}", wiki.id.as_str(), wiki.pretty_name);
            }
        }
    }
    Ok(())
}
