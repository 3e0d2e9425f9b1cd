//! Commands a binary adds to the command line: how a linked crate's admin commands (the stock
//! binary's `models`, `collections` and `index`, for semantic search) join `wiki-mcp`'s own
//! without the library linking that crate, so a custom binary serves exactly what it links.
//!
//! A binary calls [`main_with`](crate::main_with) with its [`Extension`]s; each is a clap
//! command (parsed with the global options: `--data`, `--database`, logging) and the function
//! that runs it on the farm those options name ([`Farm`]).

use std::path::Path;
use std::sync::Arc;

use anyhow::Result;
use wiki_store::Store;
use wiki_store::model::wiki::WikiId;

use crate::commands::database::FarmTarget;

/// A command a binary adds (see the module docs).
#[derive(Clone, Copy)]
pub struct Extension {
    /// The command: its name, help and arguments (e.g. a derived `Subcommand` enum's
    /// `augment_subcommands` on `clap::Command::new("name")`).
    pub command: fn() -> clap::Command,
    /// Runs it, given its own matches and the farm.
    pub run: fn(&clap::ArgMatches, &Farm<'_>) -> Result<()>,
}

/// The farm the global options name, as an extension command reaches it.
pub struct Farm<'a> {
    target: &'a FarmTarget,
}

impl<'a> Farm<'a> {
    pub(crate) fn new(target: &'a FarmTarget) -> Self {
        Farm { target }
    }

    /// Opens the farm as every admin command does: it must exist (a mistyped `--data` creates
    /// nothing and says how to create one).
    pub fn open(&self) -> Result<Arc<dyn Store>> {
        self.target.open()
    }

    /// The local data directory (`--data`), for local files (a model) even on a database farm.
    pub fn data_dir(&self) -> &Path {
        self.target.data_dir()
    }
}

/// A wiki id given on the command line, which must name an existing wiki (the error lists
/// the wikis).
pub fn existing_wiki(store: &dyn Store, id: &str) -> Result<WikiId> {
    crate::commands::existing_wiki(store, id)
}

/// Wiki ids with the main wiki first, then the others by id (listings).
pub fn main_first(wikis: impl IntoIterator<Item = WikiId>) -> Vec<WikiId> {
    crate::commands::main_first(wikis)
}
