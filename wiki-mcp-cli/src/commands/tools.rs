//! `wiki-mcp tools [--wiki ID]`: the tools linked into the running binary (the registry: the
//! stock tools, or a custom binary's own too), with each one's state on each wiki.

use anyhow::Result;
use wiki_server::policy::effective_tools;
use wiki_server::registry;

use super::database::FarmTarget;
use super::existing_wiki;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Only this wiki.
    #[arg(long)]
    wiki: Option<String>,
}

pub(crate) fn exec(farm: &FarmTarget, args: Args) -> Result<()> {
    let store = farm.open()?;
    let registry = registry()?;
    let wikis = match &args.wiki {
        Some(id) => vec![existing_wiki(&*store, id)?],
        None => super::main_first(store.list_wikis()?.into_iter().map(|wiki| wiki.id)),
    };
    let served: Vec<_> = wikis
        .iter()
        .map(|wiki| {
            let config = store.mcp_config(wiki);
            let tools = effective_tools(registry, wiki, &config, store.has_reach(wiki));
            (config.enabled, tools)
        })
        .collect();

    let mut header = format!("{:<24} {:<24} {:<6}", "TOOL", "CATEGORY", "WRITE");
    for (wiki, (enabled, _)) in wikis.iter().zip(&served) {
        let column = if *enabled {
            wiki.to_string()
        } else {
            format!("{wiki}(disabled)")
        };
        header.push_str(&format!(" {column:<16}"));
    }
    println!("{}", header.trim_end());
    let mut tools: Vec<_> = registry.tools().iter().collect();
    tools.sort_by_key(|tool| (tool.declaration().category, tool.id()));
    for tool in tools {
        let declaration = tool.declaration();
        let mut line = format!(
            "{:<24} {:<24} {:<6}",
            tool.id(),
            declaration.category,
            if declaration.write { "yes" } else { "no" }
        );
        for (enabled, ids) in &served {
            let state = match (enabled, ids.contains(tool.id())) {
                (true, true) if declaration.write => "on (users)",
                (true, true) => "on",
                _ => "off",
            };
            line.push_str(&format!(" {state:<16}"));
        }
        println!("{}", line.trim_end());
    }
    Ok(())
}
