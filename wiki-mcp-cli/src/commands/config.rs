//! `wiki-mcp config set|show --wiki ID`: a wiki's MCP configuration.

use crate::farm::CLI_AUTHOR;
use anyhow::{Context, Result, bail};
use wiki_server::policy::effective_tools;
use wiki_server::registry;
use wiki_store::model::mcp_config::{McpConfig, SpaceFilterMode};

use super::database::FarmTarget;
use super::tool_edit::{self, Known};
use super::{comma_list, existing_wiki};

/// The keys `config set` accepts.
const KEYS: &[&str] = &[
    "enabled",
    "tools",
    "description",
    "server_name",
    "space_filter_mode",
    "space_filter",
    "space_filter_documents",
    "guest",
    "allow_rendered",
    "confirm_writes",
    "links",
];

#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Set configuration keys; the server applies them on its next request.
    ///
    /// Keys: enabled=true|false, tools=VALUE, description=TEXT, server_name=TEXT,
    /// space_filter_mode=none|whitelist|blacklist, space_filter=SPACE,SPACE...,
    /// space_filter_documents=PAGE,PAGE..., guest=true|false, allow_rendered=true|false,
    /// confirm_writes=true|false (every write asks the person behind the client first),
    /// links=on|off (signed links in tool output, for clients that show them to people; off by
    /// default, a call can still ask for them).
    ///
    /// tools=default is the default policy (every tool that does not write); tools=ID,ID...
    /// replaces the set; tools=default,+ID,-ID... edits the default policy's set; tools=+ID,-ID...
    /// (first entry signed) edits the wiki's current set. Ids are those of the tools linked
    /// into this binary (`tools` lists them).
    Set {
        /// The wiki.
        #[arg(long)]
        wiki: String,
        /// KEY=VALUE pairs.
        #[arg(required = true, value_name = "KEY=VALUE")]
        pairs: Vec<String>,
    },
    /// Show the configuration and the tools it serves.
    Show {
        /// The wiki.
        #[arg(long)]
        wiki: String,
    },
}

pub(crate) fn exec(farm: &FarmTarget, command: Command) -> Result<()> {
    let store = farm.open()?;
    match command {
        Command::Set { wiki, pairs } => {
            let wiki = existing_wiki(&*store, &wiki)?;
            let mut config = store.mcp_config(&wiki);
            for pair in &pairs {
                let Some((key, value)) = pair.split_once('=') else {
                    bail!("`{pair}` is not KEY=VALUE (keys: {})", KEYS.join(", "));
                };
                apply(&mut config, key.trim(), value.trim())?;
            }
            store
                .set_mcp_config(&wiki, &config, CLI_AUTHOR)
                .with_context(|| format!("cannot save the configuration of `{wiki}`"))?;
            println!("Saved the MCP configuration of {wiki}");
            // An edit (+ID/-ID) computed the set: show what was saved.
            if pairs
                .iter()
                .any(|pair| pair.split('=').next().map(str::trim) == Some("tools"))
            {
                println!("tools = {}", stored_tools(&config));
            }
        }
        Command::Show { wiki } => {
            let wiki = existing_wiki(&*store, &wiki)?;
            let config = store.mcp_config(&wiki);
            let reach = store.has_reach(&wiki);
            let tools = effective_tools(registry()?, &wiki, &config, reach);
            let list = |items: &[String]| items.join(",");
            println!("wiki = {wiki}");
            println!("enabled = {}", config.enabled);
            println!("guest = {}", config.guest_access);
            println!("tools = {}", stored_tools(&config));
            println!(
                "served_tools = {}",
                tools.into_iter().collect::<Vec<_>>().join(",")
            );
            println!(
                "description = {}",
                config.description.as_deref().unwrap_or("")
            );
            println!(
                "server_name = {}",
                config.server_name.as_deref().unwrap_or("")
            );
            println!("space_filter_mode = {}", config.space_filter_mode);
            println!("space_filter = {}", list(&config.space_filter_spaces));
            println!(
                "space_filter_documents = {}",
                list(&config.space_filter_documents)
            );
            println!("allow_rendered = {}", config.allow_rendered);
            println!("confirm_writes = {}", config.confirm_writes);
            println!("links = {}", if config.links { "on" } else { "off" });
            println!("cross_wiki_reach = {reach}");
        }
    }
    Ok(())
}

fn apply(config: &mut McpConfig, key: &str, value: &str) -> Result<()> {
    match key {
        "enabled" => config.enabled = boolean(key, value)?,
        "guest" => config.guest_access = boolean(key, value)?,
        "allow_rendered" => config.allow_rendered = boolean(key, value)?,
        "confirm_writes" => config.confirm_writes = boolean(key, value)?,
        "links" => config.links = switch(key, value)?,
        "tools" => config.enabled_tools = tools(value, &config.enabled_tools)?,
        "description" => config.description = text(value),
        "server_name" => config.server_name = text(value),
        "space_filter_mode" => {
            config.space_filter_mode = value
                .parse::<SpaceFilterMode>()
                .context("space_filter_mode must be none, whitelist or blacklist")?;
        }
        "space_filter" => config.space_filter_spaces = comma_list(value),
        "space_filter_documents" => config.space_filter_documents = comma_list(value),
        _ => bail!("unknown key `{key}` (keys: {})", KEYS.join(", ")),
    }
    Ok(())
}

/// The stored tool list as `config show` prints it: `default` when there is none.
fn stored_tools(config: &McpConfig) -> String {
    if config.enabled_tools.is_empty() {
        "default".to_owned()
    } else {
        config.enabled_tools.join(",")
    }
}

fn boolean(key: &str, value: &str) -> Result<bool> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => bail!("{key} must be true or false, not `{value}`"),
    }
}

/// `on`/`off` (or `true`/`false`).
fn switch(key: &str, value: &str) -> Result<bool> {
    match value {
        "on" | "true" => Ok(true),
        "off" | "false" => Ok(false),
        _ => bail!("{key} must be on or off, not `{value}`"),
    }
}

fn text(value: &str) -> Option<String> {
    (!value.is_empty()).then(|| value.to_owned())
}

/// The wiki's new stored tool list for `tools=VALUE` ([`tool_edit`]), against the tools linked
/// into this binary.
fn tools(value: &str, current: &[String]) -> Result<Vec<String>> {
    let registry = registry()?;
    let known: Vec<Known<'_>> = registry
        .tools()
        .iter()
        .map(|tool| Known {
            id: tool.id(),
            write: tool.declaration().write,
        })
        .collect();
    tool_edit::edit(value, current, &known)
}
