//! `wiki-mcp trash list|restore`: the recycle bin.

use crate::farm::CLI_AUTHOR;
use anyhow::{Context, Result};
use wiki_store::model::trash::TrashId;

use super::database::FarmTarget;
use super::existing_wiki;

#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// List a wiki's deleted documents and attachments, newest first.
    List {
        /// The wiki.
        #[arg(long)]
        wiki: String,
    },
    /// Restore a deleted document (with its translations and attachments) or attachment.
    Restore {
        /// The entry id, as listed.
        id: i64,
    },
}

pub(crate) fn exec(farm: &FarmTarget, command: Command) -> Result<()> {
    let store = farm.open()?;
    match command {
        Command::List { wiki } => {
            let wiki = existing_wiki(&*store, &wiki)?;
            println!(
                "{:<6} {:<40} {:<8} {:<12} DELETED",
                "ID", "DOCUMENT", "VERSION", "BY"
            );
            for entry in store.trash(&wiki)? {
                let what = match &entry.attachment {
                    Some(name) => format!("{}@{name}", entry.reference),
                    None => entry.reference.to_string(),
                };
                println!(
                    "{:<6} {:<40} {:<8} {:<12} {}",
                    entry.id.0,
                    what,
                    entry.version.to_string(),
                    entry.deleted_by,
                    super::utc_minute(entry.deleted)
                );
            }
        }
        Command::Restore { id } => {
            let entry = store
                .restore(TrashId(id), CLI_AUTHOR)
                .with_context(|| format!("cannot restore trash entry {id}"))?;
            match entry.attachment {
                Some(name) => println!("Restored attachment {name} on {}", entry.reference),
                None => println!("Restored {}", entry.reference),
            }
        }
    }
    Ok(())
}
