//! `wiki-mcp collections create|list|delete`: the collections semantic search offers beside
//! each wiki's default one (the whole wiki), stored in the farm (`semantic_search::collections`),
//! so every server of the farm sees a change on its next search.

use anyhow::Result;
use semantic_search::collections;
use wiki_store::Store;

use wiki_mcp_cli::clap::{self, FromArgMatches, Subcommand};
use wiki_mcp_cli::extension::{Extension, Farm, existing_wiki, main_first};
use wiki_mcp_cli::farm::ADMIN_USER;

#[derive(Debug, Subcommand)]
enum Command {
    /// Define a collection over one or more spaces (nested spaces included).
    Create {
        /// The wiki it belongs to.
        #[arg(long)]
        wiki: String,
        /// Its id (a-z, 0-9, '_', '-'), as agents pass it to search_collections.
        id: String,
        /// A space it covers, e.g. `Docs` or `Docs.Guides`; repeatable.
        #[arg(long = "space", required = true, value_name = "SPACE")]
        spaces: Vec<String>,
    },
    /// List the collections of a wiki (or of every wiki), the default one first.
    List {
        /// The wiki (default: every wiki).
        #[arg(long)]
        wiki: Option<String>,
    },
    /// Delete a defined collection (the pages stay; only the definition goes).
    Delete {
        /// The wiki it belongs to.
        #[arg(long)]
        wiki: String,
        /// Its id.
        id: String,
    },
}

/// `wiki-mcp collections`, for [`wiki_mcp_cli::main_with`].
pub(crate) const EXTENSION: Extension = Extension {
    command: || {
        Command::augment_subcommands(clap::Command::new("collections"))
            .about("Semantic search collections: create, list, delete")
            .subcommand_required(true)
    },
    run: |matches, farm| exec(farm, Command::from_arg_matches(matches)?),
};

fn exec(farm: &Farm<'_>, command: Command) -> Result<()> {
    let store = farm.open()?;
    match command {
        Command::Create { wiki, id, spaces } => {
            let wiki = existing_wiki(&*store, &wiki)?;
            let created = collections::create(&*store, &wiki, &id, &spaces, ADMIN_USER)?;
            println!(
                "created collection {} of wiki {wiki}: {}",
                created.id,
                created.spaces.join(", ")
            );
        }
        Command::List { wiki } => {
            let wikis = match wiki {
                Some(id) => vec![existing_wiki(&*store, &id)?],
                None => main_first(store.list_wikis()?.into_iter().map(|wiki| wiki.id)),
            };
            println!("WIKI\tCOLLECTION\tSPACES");
            for wiki in wikis {
                list(&*store, &wiki)?;
            }
        }
        Command::Delete { wiki, id } => {
            let wiki = existing_wiki(&*store, &wiki)?;
            collections::delete(&*store, &wiki, &id, ADMIN_USER)?;
            println!("deleted collection {id} of wiki {wiki}");
        }
    }
    Ok(())
}

fn list(store: &dyn Store, wiki: &wiki_store::model::wiki::WikiId) -> Result<()> {
    println!("{wiki}\t{wiki}\t(default: the whole wiki)");
    for collection in collections::defined(store, wiki)? {
        println!(
            "{wiki}\t{}\t{}",
            collection.id,
            collection.spaces.join(", ")
        );
    }
    Ok(())
}
