//! A wiki's MCP configuration, and what holds when it cannot be read.
//!
//! Stored as the one object of class [`MCP_CONFIG_CLASS`] on the wiki's document
//! [`MCP_CONFIG_DOCUMENT`]; the object API refuses that class, so only the configuration calls
//! (admin commands) can change it, never a write tool.

use std::fmt;
use std::str::FromStr;

use crate::error::{InvalidInput, StoreError};

/// The document of each wiki that carries its MCP configuration object.
pub const MCP_CONFIG_DOCUMENT: &str = "MCP.ServerConfig";
/// The class of the configuration object (defined on the document of the same name).
pub const MCP_CONFIG_CLASS: &str = "MCP.ServerConfigClass";

/// How the space filter treats its entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SpaceFilterMode {
    /// No filter: everything the user may view is exposed.
    #[default]
    None,
    /// Only the listed spaces (with their nested spaces) and documents are exposed; both lists
    /// empty means unrestricted, as in the reference.
    Whitelist,
    /// Everything but the listed spaces and documents is exposed.
    Blacklist,
    /// The configuration could not be read: nothing is exposed. Never stored; only
    /// [`McpConfig::fail_closed`] produces it.
    DenyAll,
}

impl SpaceFilterMode {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            SpaceFilterMode::None => "none",
            SpaceFilterMode::Whitelist => "whitelist",
            SpaceFilterMode::Blacklist => "blacklist",
            SpaceFilterMode::DenyAll => "deny_all",
        }
    }
}

impl fmt::Display for SpaceFilterMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SpaceFilterMode {
    type Err = StoreError;

    /// Parses a mode an admin may set (`none`, `whitelist`, `blacklist`; blank means `none`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "" | "none" => Ok(SpaceFilterMode::None),
            "whitelist" => Ok(SpaceFilterMode::Whitelist),
            "blacklist" => Ok(SpaceFilterMode::Blacklist),
            _ => Err(StoreError::Invalid(InvalidInput::Keyword {
                what: "space filter mode",
                expected: "none, whitelist, blacklist",
            })),
        }
    }
}

/// One wiki's MCP configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpConfig {
    /// The server name sent to clients; `None` means the wiki's pretty name.
    pub server_name: Option<String>,
    /// The description sent as the server's instructions; `None` means the built-in one.
    pub description: Option<String>,
    /// Whether the endpoint exists at all (off: every request gets 404).
    pub enabled: bool,
    /// Tool ids to serve; empty means the default policy (every read-only tool).
    pub enabled_tools: Vec<String>,
    /// Whether tools may return rendered content (a capability, not a confidentiality switch).
    pub allow_rendered: bool,
    /// The space filter mode.
    pub space_filter_mode: SpaceFilterMode,
    /// Space entries of the filter (`Space.Sub` or `wiki:Space`).
    pub space_filter_spaces: Vec<String>,
    /// Document entries of the filter (`Space.Page`).
    pub space_filter_documents: Vec<String>,
    /// Whether requests without a credential are served as the guest user (their rights then
    /// decide what they see). Off until an administrator opens the wiki: a new wiki must not
    /// answer anonymous callers before anyone configured it.
    pub guest_access: bool,
    /// Whether every write asks the person behind the agent first (through the client's
    /// elicitation), whatever the tool; off, only tools declared `confirm` ask.
    pub confirm_writes: bool,
    /// Whether tool output carries signed links (`URL:`, `View:`, `Download:`, `Compare:`, a
    /// result's `<url>`, the structured `url` fields) for clients that show them to people; off,
    /// a call still gets them by asking (its `_meta` key `wiki-mcp/links`). They cost an agent
    /// tokens it rarely uses, so they are off unless an administrator turns them on.
    pub links: bool,
    /// Wikis with cross-wiki reach. Read only from the main wiki's configuration, so a sub-wiki
    /// admin cannot grant reach to their own wiki; ignored on other wikis.
    pub reach_enabled_wikis: Vec<String>,
    /// Whether `reach_enabled_wikis` has been set once (main wiki only). Until it is, only the
    /// main wiki has reach.
    pub reach_initialized: bool,
}

impl Default for McpConfig {
    /// The configuration of a wiki nobody configured: enabled, default tools, rendered content
    /// allowed, no space filter, guests not served (a new wiki answers only callers with a
    /// credential until an administrator opens it), writes not confirmed, no links in tool
    /// output, reach not initialized.
    fn default() -> Self {
        McpConfig {
            server_name: None,
            description: None,
            enabled: true,
            enabled_tools: Vec::new(),
            allow_rendered: true,
            space_filter_mode: SpaceFilterMode::None,
            space_filter_spaces: Vec::new(),
            space_filter_documents: Vec::new(),
            guest_access: false,
            confirm_writes: false,
            links: false,
            reach_enabled_wikis: Vec::new(),
            reach_initialized: false,
        }
    }
}

impl McpConfig {
    /// What holds when the configuration exists but cannot be read: the endpoint is disabled
    /// (404), the space filter exposes nothing, guests are not served and no wiki has reach. The
    /// tool list falls back to the default policy and rendered content stays allowed, as in the
    /// reference (neither widens what a caller can see).
    pub fn fail_closed() -> Self {
        McpConfig {
            enabled: false,
            space_filter_mode: SpaceFilterMode::DenyAll,
            guest_access: false,
            reach_enabled_wikis: Vec::new(),
            reach_initialized: true,
            ..McpConfig::default()
        }
    }

    /// Whether `wiki` has cross-wiki reach, judged from THIS configuration, which must be the main
    /// wiki's: before the list is initialized only the main wiki has reach.
    pub fn grants_reach(&self, wiki: &str, main_wiki: &str) -> bool {
        if self.reach_initialized {
            self.reach_enabled_wikis.iter().any(|w| w == wiki)
        } else {
            wiki == main_wiki
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_and_deny_all_cannot_be_set() {
        assert_eq!(
            "".parse::<SpaceFilterMode>().ok(),
            Some(SpaceFilterMode::None)
        );
        assert_eq!(
            "whitelist".parse::<SpaceFilterMode>().ok(),
            Some(SpaceFilterMode::Whitelist)
        );
        assert!("deny_all".parse::<SpaceFilterMode>().is_err());
        assert!("Whitelist".parse::<SpaceFilterMode>().is_err());
    }

    #[test]
    fn the_fail_closed_configuration_exposes_nothing() {
        let config = McpConfig::fail_closed();
        assert!(!config.enabled);
        assert!(!config.guest_access);
        assert_eq!(config.space_filter_mode, SpaceFilterMode::DenyAll);
        assert!(!config.grants_reach("main", "main"));
    }

    #[test]
    fn reach_belongs_to_main_until_initialized() {
        let mut config = McpConfig::default();
        assert!(config.grants_reach("main", "main"));
        assert!(!config.grants_reach("dev", "main"));
        config.reach_initialized = true;
        config.reach_enabled_wikis = vec!["dev".into()];
        assert!(!config.grants_reach("main", "main"));
        assert!(config.grants_reach("dev", "main"));
    }
}
