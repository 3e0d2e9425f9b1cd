//! One wiki's built server: its tools (the framework's `ToolSet`s, listings built once),
//! instructions and filter.
//!
//! Built by the [`Manager`](super::Manager) from the wiki's configuration, then shared (`Arc`)
//! by every request until the configuration changes. Nothing here is rebuilt per request.

use std::borrow::Cow;
use std::sync::Arc;

use mcp_runtime::ToolSet;
use rmcp::model::ListToolsResult;
use wiki_store::model::mcp_config::McpConfig;
use wiki_store::model::wiki::WikiId;

use wiki_tool_sdk::access::SpaceFilter;

use super::Caller;
use crate::metrics::calls::ToolMeters;

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
    /// The call metrics of its tools, resolved once per tool.
    pub(crate) meters: ToolMeters,
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

    /// Whether every write on this wiki asks the person behind the client first.
    pub fn confirm_writes(&self) -> bool {
        self.inputs.config.confirm_writes
    }

    /// Whether tool output carries signed links on this wiki unless a call asks (the
    /// configuration's `links`; off by default).
    pub fn links(&self) -> bool {
        self.inputs.config.links
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

    /// The tools `caller` can see and call: the set of its kind ([`WikiServer::tools`]),
    /// narrowed by whatever narrows it (`narrowing.rs`). Borrowed when nothing does.
    pub fn tools_for(&self, caller: &Caller) -> Cow<'_, ToolSet> {
        let tools = self.tools(caller.is_guest());
        match caller.narrowing() {
            None => Cow::Borrowed(tools),
            Some(narrowing) => Cow::Owned(narrowing.apply(tools)),
        }
    }

    /// The `tools/list` answer `caller` gets: every transport and test answers this.
    pub fn list_for(&self, caller: &Caller) -> ListToolsResult {
        self.tools_for(caller).list_result()
    }

    /// The space filter of this wiki's configuration.
    pub fn filter(&self) -> &Arc<SpaceFilter> {
        &self.filter
    }
}
