//! The per-wiki MCP configuration, read from an object on the wiki's configuration document;
//! reading never fails open.

use crate::Result;
use crate::model::document::SaveOutcome;
use crate::model::mcp_config::McpConfig;
use crate::model::wiki::WikiId;

/// The per-wiki MCP configuration, stored as the object of class
/// [`crate::model::mcp_config::MCP_CONFIG_CLASS`] on the wiki's hidden document
/// [`crate::model::mcp_config::MCP_CONFIG_DOCUMENT`].
///
/// Reads return a configuration, never an error: no configuration object means
/// [`McpConfig::default`], and anything that cannot be read (a storage failure, a corrupt value,
/// an unknown wiki) means [`McpConfig::fail_closed`], logged at WARN. Saving the configuration
/// saves its document, so subscribers receive a `DocumentSaved` event for it and the change
/// sequence advances.
pub trait ConfigStore {
    /// The configuration of `wiki`.
    fn mcp_config(&self, wiki: &WikiId) -> McpConfig;

    /// Whether `wiki` has cross-wiki reach. Decided by the MAIN wiki's configuration only, so a
    /// sub-wiki admin cannot grant their wiki reach; false when it cannot be read.
    fn has_reach(&self, wiki: &WikiId) -> bool {
        self.mcp_config(&WikiId::main())
            .grants_reach(wiki.as_str(), crate::model::wiki::MAIN_WIKI)
    }

    /// Replaces the configuration of `wiki` (checked first: tool ids, filter entries, wiki ids,
    /// text lengths), saved by `author`. [`crate::model::mcp_config::SpaceFilterMode::DenyAll`]
    /// cannot be stored.
    fn set_mcp_config(
        &self,
        wiki: &WikiId,
        config: &McpConfig,
        author: &str,
    ) -> Result<SaveOutcome>;
}
