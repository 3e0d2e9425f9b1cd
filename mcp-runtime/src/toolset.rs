//! [`ToolSet`]: the tools one caller may use, as served: each tool's registry entry and its
//! definition, plus the `tools/list` answer built once.
//!
//! A server builds its sets when its configuration is read (the wiki server: one per wiki and
//! caller kind), never per request; a call looks its tool up here, so a tool outside the
//! caller's set cannot run whatever name the request gives.

use std::collections::BTreeSet;
use std::sync::Arc;

use rmcp::model::{ListToolsResult, Tool, ToolAnnotations as RmcpAnnotations};

use crate::definition::ToolDefinition;
use crate::error::Error;
use crate::registry::{RegisteredTool, Registry};
use crate::schema::SchemaVariant;

/// A tool a server serves: its registry entry and the definition it advertises.
#[derive(Debug, Clone, Copy)]
pub struct ServedTool {
    /// The registry entry (declaration and invoke).
    pub tool: &'static RegisteredTool,
    /// The definition advertised (in the server's schema variant).
    pub definition: &'static ToolDefinition,
}

impl ServedTool {
    /// `tool` with its definition in `variant`, built and checked once
    /// ([`RegisteredTool::definition`]); `Err` when that definition is not advertisable.
    pub fn new(tool: &'static RegisteredTool, variant: SchemaVariant) -> Result<Self, Error> {
        Ok(Self {
            tool,
            definition: tool.definition(variant)?,
        })
    }

    /// The tool's id (its advertised name).
    pub fn id(&self) -> &'static str {
        self.tool.id()
    }

    /// Whether the tool changes content (the guest never runs it).
    pub fn writes(&self) -> bool {
        self.tool.declaration().write
    }
}

/// The tools one caller may use, sorted by id, with their `tools/list` values built once.
#[derive(Debug, Clone, Default)]
pub struct ToolSet {
    tools: Vec<ServedTool>,
    listed: Arc<[Tool]>,
}

impl ToolSet {
    /// A set of exactly `tools` (sorted by id here).
    pub fn new(tools: impl IntoIterator<Item = ServedTool>) -> Self {
        let mut tools: Vec<ServedTool> = tools.into_iter().collect();
        tools.sort_by_key(ServedTool::id);
        let listed = tools.iter().map(|served| rmcp_tool(*served)).collect();
        Self { tools, listed }
    }

    /// Every tool of `registry` in `variant`. `Err` names the first tool whose definition is
    /// not advertisable: a server of its own tools should not start with one of them missing.
    pub fn from_registry(
        registry: &'static Registry,
        variant: SchemaVariant,
    ) -> Result<Self, Error> {
        let tools = registry
            .tools()
            .iter()
            .map(|tool| ServedTool::new(tool, variant))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self::new(tools))
    }

    /// The subset of this set whose ids are in `ids`.
    pub fn only(&self, ids: &BTreeSet<&str>) -> Self {
        self.filtered(|served| ids.contains(served.id()))
    }

    /// The subset the guest may use: every tool that does not write.
    pub fn without_writes(&self) -> Self {
        self.filtered(|served| !served.writes())
    }

    fn filtered(&self, keep: impl Fn(&ServedTool) -> bool) -> Self {
        let tools: Vec<ServedTool> = self.tools.iter().filter(|s| keep(s)).copied().collect();
        let listed = self
            .tools
            .iter()
            .zip(self.listed.iter())
            .filter(|(served, _)| keep(served))
            .map(|(_, listed)| listed.clone())
            .collect();
        Self { tools, listed }
    }

    /// The tool named `name`, if this caller can use it.
    pub fn get(&self, name: &str) -> Option<ServedTool> {
        self.tools
            .binary_search_by(|served| served.id().cmp(name))
            .ok()
            .and_then(|index| self.tools.get(index))
            .copied()
    }

    /// Every tool, sorted by id.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = ServedTool> + '_ {
        self.tools.iter().copied()
    }

    /// How many tools the set has.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether the set has no tool.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The ids, sorted, comma-separated: for messages that list what a caller can use.
    pub fn names(&self) -> String {
        self.tools
            .iter()
            .map(ServedTool::id)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The `tools/list` answer (the rmcp values were built once; this clones `Arc`ed schemas).
    pub fn list_result(&self) -> ListToolsResult {
        ListToolsResult::with_all_items(self.listed.to_vec())
    }
}

/// The rmcp value of a served tool: name, title, description, schemas and the annotations its
/// declaration states. The category is not repeated in `_meta`: every listing would pay for it,
/// and a client that narrows by category finds the categories in `man`'s catalog.
fn rmcp_tool(served: ServedTool) -> Tool {
    let definition = served.definition;
    let hints = definition.annotations;
    let annotations = RmcpAnnotations::new()
        .read_only(hints.read_only_hint)
        .destructive(hints.destructive_hint)
        .idempotent(hints.idempotent_hint)
        .open_world(hints.open_world_hint);
    let mut tool = Tool::new(
        definition.name,
        definition.description,
        Arc::clone(&definition.input_schema),
    );
    if let Some(output) = &definition.output_schema {
        tool = tool.with_raw_output_schema(Arc::clone(output));
    }
    // The title once, where the protocol puts it since 2025-06-18; `annotations.title` was its
    // earlier home, and repeating it there costs every listing.
    if let Some(title) = definition.title {
        tool = tool.with_title(title);
    }
    tool.with_annotations(annotations)
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use super::*;
    use crate::declaration::ToolDeclaration;
    use crate::declaration::testing;

    const fn declaration(id: &'static str, write: bool) -> ToolDeclaration {
        testing::declaration(id, write, "tools")
    }

    static READ: ToolDeclaration = declaration("read", false);
    static WRITE: ToolDeclaration = declaration("write", true);
    static ANOTHER: ToolDeclaration = declaration("another", false);

    fn set() -> ToolSet {
        static REGISTRY: OnceLock<Registry> = OnceLock::new();
        let registry = REGISTRY.get_or_init(|| {
            Registry::from_declarations([&READ, &WRITE, &ANOTHER], &[])
                .unwrap_or_else(|error| panic!("{error}"))
        });
        ToolSet::from_registry(registry, SchemaVariant::Standard)
            .unwrap_or_else(|error| panic!("{error}"))
    }

    fn listed(set: &ToolSet) -> Vec<String> {
        let listed = set.list_result().tools.into_iter();
        listed.map(|tool| tool.name.into_owned()).collect()
    }

    #[test]
    fn subsets_keep_their_listing_in_step() {
        let all = set();
        assert_eq!(all.names(), "another, read, write");
        assert_eq!(listed(&all), ["another", "read", "write"]);
        let guest = all.without_writes();
        assert_eq!(guest.names(), "another, read");
        assert_eq!(listed(&guest), ["another", "read"]);
        assert!(guest.get("write").is_none() && guest.get("read").is_some());
        let only = all.only(&BTreeSet::from(["write", "nope"]));
        assert_eq!((only.len(), listed(&only)), (1, vec!["write".to_owned()]));
        assert!(ToolSet::default().is_empty());
    }

    #[test]
    fn a_write_tool_is_listed_as_destructive_with_every_hint_stated() {
        let all = set();
        let tools = all.list_result().tools;
        let write = tools.iter().find(|tool| tool.name == "write");
        let annotations = write.and_then(|tool| tool.annotations.clone());
        assert_eq!(
            annotations.map(|a| (a.read_only_hint, a.destructive_hint)),
            Some((Some(false), Some(true)))
        );
        assert_eq!(
            write
                .and_then(|tool| tool.annotations.as_ref())
                .map(|a| (a.idempotent_hint, a.open_world_hint)),
            Some((Some(false), Some(false))),
            "every hint is stated: a tool is in a closed world unless it declares otherwise"
        );
        assert!(write.is_some_and(|tool| tool.meta.is_none()));
    }
}
