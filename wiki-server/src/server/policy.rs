//! Which tools a wiki serves: its effective tool set, and the guest's share of it.
//!
//! The effective set is the wiki's stored list when it is non-empty, else the default policy
//! (every tool that does not write); `man` is always in it; `list_wikis` is in it exactly when
//! the wiki has cross-wiki reach (whatever the stored list says, since reach is granted only by
//! the main wiki's configuration). Unknown ids in a stored list are ignored with a WARN: a tool
//! removed from the binary must not take a wiki's endpoint down. The guest never gets a write
//! tool, even one the list enables.

use std::collections::BTreeSet;

use wiki_store::model::mcp_config::McpConfig;
use wiki_store::model::wiki::WikiId;

use mcp_runtime::Registry;

/// The id of the manual tool, served on every wiki.
pub const MAN: &str = "man";
/// The id of the wiki listing, served exactly on wikis with cross-wiki reach.
pub const LIST_WIKIS: &str = "list_wikis";

/// The ids a wiki serves to its users, sorted.
pub fn effective_tools(
    registry: &Registry,
    wiki: &WikiId,
    config: &McpConfig,
    reach: bool,
) -> BTreeSet<&'static str> {
    let mut ids: BTreeSet<&'static str> = if config.enabled_tools.is_empty() {
        registry
            .tools()
            .iter()
            .filter(|tool| !tool.declaration().write)
            .map(|tool| tool.id())
            .collect()
    } else {
        config
            .enabled_tools
            .iter()
            .filter_map(|id| match registry.get(id.trim()) {
                Some(tool) => Some(tool.id()),
                None => {
                    tracing::warn!(
                        wiki = %wiki,
                        tool = %id,
                        "ignoring an unknown tool id in the wiki's MCP configuration"
                    );
                    None
                }
            })
            .collect()
    };
    ids.remove(LIST_WIKIS);
    if reach && registry.get(LIST_WIKIS).is_some() {
        ids.insert(LIST_WIKIS);
    }
    if registry.get(MAN).is_some() {
        ids.insert(MAN);
    }
    ids
}

/// The guest's share of `ids`: every tool that does not write.
pub fn guest_tools(registry: &Registry, ids: &BTreeSet<&'static str>) -> BTreeSet<&'static str> {
    ids.iter()
        .copied()
        .filter(|id| {
            registry
                .get(id)
                .is_some_and(|tool| !tool.declaration().write)
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use mcp_runtime::declaration::{BoxFuture, ToolDeclaration};
    use mcp_runtime::param::JsonObject;
    use mcp_runtime::prelude::{ToolContext, ToolOutput, ToolResult};

    use super::*;
    use crate::RESERVED;

    fn invoke<'a>(_: &'a ToolContext, _: &'a JsonObject) -> BoxFuture<'a, ToolResult> {
        Box::pin(async { Ok(ToolOutput::text("ok")) })
    }

    /// A parameterless tool `id` declared in `module_path`, writing or not (the narrowing's
    /// tests use it too).
    pub(crate) const fn declaration(
        id: &'static str,
        write: bool,
        module_path: &'static str,
    ) -> ToolDeclaration {
        ToolDeclaration {
            id,
            title: None,
            summary: "A tool.",
            description: "A tool.",
            category: "General",
            write,
            idempotent: false,
            additive: false,
            confirm: false,
            open_world: None,
            output: None,
            man: None,
            module_path,
            params: &[],
            invoke,
        }
    }

    static MAN_TOOL: ToolDeclaration = declaration("man", false, "wiki_server::man");
    static LIST: ToolDeclaration = declaration("list_wikis", false, "wiki_server::list_wikis");
    static READ: ToolDeclaration = declaration("get_document", false, "tools::get_document");
    static TREE: ToolDeclaration = declaration("get_tree", false, "tools::get_tree");
    static WRITE: ToolDeclaration = declaration("write_document", true, "tools::write_document");

    fn registry() -> Registry {
        Registry::from_declarations([&MAN_TOOL, &LIST, &READ, &TREE, &WRITE], &[RESERVED])
            .unwrap_or_else(|error| panic!("{error}"))
    }

    fn served(stored: &[&str], reach: bool) -> Vec<&'static str> {
        let config = McpConfig {
            enabled_tools: stored.iter().map(|id| (*id).to_owned()).collect(),
            ..McpConfig::default()
        };
        effective_tools(&registry(), &WikiId::main(), &config, reach)
            .into_iter()
            .collect()
    }

    #[test]
    fn the_effective_set_follows_the_truth_table() {
        let cases: [(&[&str], bool, &[&str]); 8] = [
            // No stored list: every read tool, plus man; list_wikis only with reach.
            (&[], false, &["get_document", "get_tree", "man"]),
            (
                &[],
                true,
                &["get_document", "get_tree", "list_wikis", "man"],
            ),
            // A stored list replaces the default, man added, write tools allowed.
            (
                &["get_tree", "write_document"],
                false,
                &["get_tree", "man", "write_document"],
            ),
            // list_wikis in a stored list is stripped without reach and added with it.
            (&["list_wikis", "get_tree"], false, &["get_tree", "man"]),
            (&["get_tree"], true, &["get_tree", "list_wikis", "man"]),
            // Unknown ids are ignored; a list of only unknown ids leaves man.
            (&["nope", "get_tree"], false, &["get_tree", "man"]),
            (&["nope"], false, &["man"]),
            // man listed explicitly is not doubled.
            (&["man"], false, &["man"]),
        ];
        for (stored, reach, expected) in cases {
            assert_eq!(
                served(stored, reach),
                expected,
                "stored {stored:?}, reach {reach}"
            );
        }
    }

    #[test]
    fn the_guest_never_gets_a_write_tool() {
        let registry = registry();
        let config = McpConfig {
            enabled_tools: vec!["write_document".into(), "get_tree".into()],
            ..McpConfig::default()
        };
        let ids = effective_tools(&registry, &WikiId::main(), &config, true);
        assert!(ids.contains("write_document"));
        let guest: Vec<_> = guest_tools(&registry, &ids).into_iter().collect();
        assert_eq!(guest, ["get_tree", "list_wikis", "man"]);
    }
}
