//! One module per subcommand, each a clap declaration and an `exec` (cargo's layout). The work
//! lives in the libraries; these parse, call, and print.

pub(crate) mod backup;
mod bounded_stop;
pub(crate) mod budgets;
pub(crate) mod config;
pub(crate) mod connections;
pub(crate) mod database;
pub(crate) mod farm;
pub(crate) mod group;
pub(crate) mod import;
pub(crate) mod init;
pub(crate) mod migrate;
pub(crate) mod oidc;
pub(crate) mod oidc_flags;
pub(crate) mod operations;
pub(crate) mod restore;
pub(crate) mod rights;
pub(crate) mod serve;
pub(crate) mod stdio;
pub(crate) mod token;
mod tool_edit;
pub(crate) mod tools;
pub(crate) mod trash;
pub(crate) mod user;
pub(crate) mod wikis;

use anyhow::{Context, Result};
use wiki_server::accounts::{AccountChange, COMMAND_LINE};
use wiki_store::Store;
use wiki_store::model::wiki::WikiId;
/// A wiki id given on the command line, which must name an existing wiki.
pub(crate) fn existing_wiki(store: &dyn Store, id: &str) -> Result<WikiId> {
    Ok(wiki_server::accounts::existing_wiki(store, id)?)
}

/// Makes an account change as the command line (audited so), printing what was done.
pub(crate) fn change(store: &dyn Store, change: AccountChange) -> Result<()> {
    change
        .apply(store, COMMAND_LINE)
        .with_context(|| format!("cannot {}", change.attempt()))?;
    println!("{}", change.done());
    Ok(())
}

/// Wiki ids with the main wiki first, then the others by id (listings).
pub(crate) fn main_first(wikis: impl IntoIterator<Item = WikiId>) -> Vec<WikiId> {
    let mut wikis: Vec<WikiId> = wikis.into_iter().collect();
    wikis.sort_by(|a, b| (!a.is_main(), a).cmp(&(!b.is_main(), b)));
    wikis
}

/// The async runtime for the commands that serve.
pub(crate) fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// A time as the listings print it, `2026-11-30 13:52 UTC`: to the minute, in UTC whatever the
/// stored offset (token uses are only recorded to the minute anyway).
pub(crate) fn utc_minute(at: wiki_tool_sdk::time::OffsetDateTime) -> String {
    format!("{} UTC", wiki_tool_sdk::instant::utc_minute(at))
}

/// `a, b,,c` as `["a", "b", "c"]`: trimmed, empty items dropped.
pub(crate) fn comma_list(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(str::to_owned)
        .collect()
}
