//! `wiki-mcp farm reach grant|revoke WIKI`: cross-wiki reach, kept in the main wiki's
//! configuration only (so a sub-wiki's admin cannot grant it to their own wiki).

use crate::farm::CLI_AUTHOR;
use anyhow::{Context, Result};
use wiki_store::model::wiki::{MAIN_WIKI, WikiId};

use super::database::FarmTarget;
use super::existing_wiki;

#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Cross-wiki reach: which wikis' endpoints may read other wikis.
    #[command(subcommand)]
    Reach(Reach),
}

#[derive(Debug, clap::Subcommand)]
pub(crate) enum Reach {
    /// Let a wiki's endpoint reach the other wikis (list_wikis and `wiki` parameters).
    Grant {
        /// The wiki.
        wiki: String,
    },
    /// Take cross-wiki reach away from a wiki's endpoint.
    Revoke {
        /// The wiki.
        wiki: String,
    },
    /// List the wikis with reach.
    Show,
}

pub(crate) fn exec(farm: &FarmTarget, command: Command) -> Result<()> {
    let store = farm.open()?;
    let Command::Reach(reach) = command;
    let main = WikiId::main();
    let mut config = store.mcp_config(&main);
    if !config.reach_initialized {
        // Until the list is first saved only the main wiki has reach: make that explicit.
        config.reach_enabled_wikis = vec![MAIN_WIKI.to_owned()];
        config.reach_initialized = true;
    }
    let (wiki, grant) = match reach {
        Reach::Show => {
            println!("{}", config.reach_enabled_wikis.join("\n"));
            return Ok(());
        }
        Reach::Grant { wiki } => (existing_wiki(&*store, &wiki)?, true),
        Reach::Revoke { wiki } => (existing_wiki(&*store, &wiki)?, false),
    };
    config.reach_enabled_wikis.retain(|w| w != wiki.as_str());
    if grant {
        config.reach_enabled_wikis.push(wiki.to_string());
        config.reach_enabled_wikis.sort();
    }
    store
        .set_mcp_config(&main, &config, CLI_AUTHOR)
        .context("cannot save the main wiki's configuration")?;
    let verb = if grant { "Granted" } else { "Revoked" };
    println!("{verb} cross-wiki reach for {wiki}");
    Ok(())
}
