//! One wiki's built server: its tools (as rmcp values, built once), instructions and filter.
//!
//! Built by the [`Manager`](super::Manager) from the wiki's configuration, then shared (`Arc`)
//! by every request until the configuration changes. Nothing here is rebuilt per request.

use std::collections::BTreeSet;
use std::sync::Arc;

use rmcp::model::{ListToolsResult, MetaObject, Tool, ToolAnnotations as RmcpAnnotations};
use wiki_store::model::mcp_config::McpConfig;
use wiki_store::model::wiki::WikiId;

use crate::access::SpaceFilter;
use crate::definition::ToolDefinition;
use crate::registry::RegisteredTool;

/// What a wiki's server was built from: when a rebuild would read the same inputs, the old
/// server is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EndpointInputs {
    pub(crate) pretty_name: String,
    pub(crate) config: McpConfig,
    pub(crate) reach: bool,
}

/// One wiki's server, shared by every request until its configuration changes.
#[derive(Debug)]
pub struct WikiServer {
    pub(crate) wiki: WikiId,
    pub(crate) inputs: EndpointInputs,
    pub(crate) user_tools: ToolSet,
    pub(crate) guest_tools: ToolSet,
    pub(crate) instructions: String,
    pub(crate) filter: Arc<SpaceFilter>,
}

impl WikiServer {
    /// The wiki this server serves.
    pub fn wiki(&self) -> &WikiId {
        &self.wiki
    }

    /// Whether the endpoint is enabled (a disabled endpoint answers 404, before authentication).
    pub fn enabled(&self) -> bool {
        self.inputs.config.enabled
    }

    /// Whether requests without credentials are served as the guest.
    pub fn guest_access(&self) -> bool {
        self.inputs.config.guest_access
    }

    /// Whether this endpoint has cross-wiki reach (granted by the main wiki's configuration).
    pub fn reach(&self) -> bool {
        self.inputs.reach
    }

    /// The server name sent to clients: the configured one, else the wiki's pretty name.
    pub fn server_name(&self) -> &str {
        self.inputs
            .config
            .server_name
            .as_deref()
            .filter(|name| !name.trim().is_empty())
            .unwrap_or(&self.inputs.pretty_name)
    }

    /// The wiki's pretty name.
    pub fn pretty_name(&self) -> &str {
        &self.inputs.pretty_name
    }

    /// The initialize/discover instructions: the configured description, a blank line, and the
    /// hint to call `man` first (only when `man` is served).
    pub fn instructions(&self) -> &str {
        &self.instructions
    }

    /// The tools this caller can see and call: the guest never gets a write tool.
    pub fn tools(&self, guest: bool) -> &ToolSet {
        if guest {
            &self.guest_tools
        } else {
            &self.user_tools
        }
    }

    /// The space filter of this wiki's configuration.
    pub fn filter(&self) -> &Arc<SpaceFilter> {
        &self.filter
    }
}

/// The tools one caller variant (user or guest) of a wiki can use, sorted by id.
#[derive(Debug, Clone, Default)]
pub struct ToolSet {
    tools: Vec<ServedTool>,
    listed: Arc<[Tool]>,
}

/// A tool a wiki serves: its registry entry and its definition for the wiki's reach.
#[derive(Debug, Clone, Copy)]
pub struct ServedTool {
    /// The registry entry (declaration and invoke).
    pub tool: &'static RegisteredTool,
    /// The definition advertised on this wiki.
    pub definition: &'static ToolDefinition,
}

impl ToolSet {
    pub(crate) fn new(mut tools: Vec<ServedTool>) -> Self {
        tools.sort_by_key(|served| served.tool.id());
        let listed = tools.iter().map(|served| rmcp_tool(*served)).collect();
        Self { tools, listed }
    }

    /// The subset of this set whose ids are in `ids`.
    pub(crate) fn only(&self, ids: &BTreeSet<&'static str>) -> Self {
        Self::new(
            self.tools
                .iter()
                .filter(|served| ids.contains(served.tool.id()))
                .copied()
                .collect(),
        )
    }

    /// The tool named `name`, if this caller can use it.
    pub fn get(&self, name: &str) -> Option<ServedTool> {
        self.tools
            .binary_search_by(|served| served.tool.id().cmp(name))
            .ok()
            .and_then(|index| self.tools.get(index))
            .copied()
    }

    /// Every tool, sorted by id.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = ServedTool> + '_ {
        self.tools.iter().copied()
    }

    /// The ids, sorted, comma-separated: for messages that list what a caller can use.
    pub fn names(&self) -> String {
        self.tools
            .iter()
            .map(|served| served.tool.id())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The `tools/list` answer (the rmcp values were built once; this clones `Arc`ed schemas).
    pub fn list_result(&self) -> ListToolsResult {
        ListToolsResult::with_all_items(self.listed.to_vec())
    }
}

/// The rmcp value of a served tool: name, title, description, schema, the annotations that
/// follow from `write`, and the category in `_meta`.
fn rmcp_tool(served: ServedTool) -> Tool {
    let definition = served.definition;
    let mut annotations = RmcpAnnotations::new().read_only(definition.annotations.read_only_hint);
    if let Some(destructive) = definition.annotations.destructive_hint {
        annotations = annotations.destructive(destructive);
    }
    let mut meta = MetaObject::new();
    meta.0.insert(
        "category".to_owned(),
        served.tool.declaration().category.into(),
    );
    let mut tool = Tool::new(
        definition.name,
        definition.description,
        Arc::clone(&definition.input_schema),
    );
    if let Some(title) = definition.title {
        tool = tool.with_title(title);
        annotations.title = Some(title.to_owned());
    }
    tool.with_annotations(annotations).with_meta(meta)
}
