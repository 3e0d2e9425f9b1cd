//! What no write tool may change, whatever its arguments and whoever calls it: the server's own
//! MCP configuration (its document and class document, in every wiki) and the classes that
//! would grant rights or impersonate users. Only the configuration commands change an
//! endpoint's configuration; rights, users and tokens are not documents in our store at all.

use crate::untrusted::fragment;
use mcp_runtime::prelude::{ErrorKind, ToolError};
use wiki_store::model::mcp_config::{MCP_CONFIG_CLASS, MCP_CONFIG_DOCUMENT};
use wiki_store::reference::DocumentReference;

/// The documents write tools never change, by wiki-local name (in every wiki).
pub const RESERVED_DOCUMENTS: [&str; 2] = [MCP_CONFIG_DOCUMENT, MCP_CONFIG_CLASS];

/// Classes no object or schema write may touch: the reference's rights, groups, users and server
/// classes (refused by name even though our store keeps rights and users outside documents), and
/// the MCP configuration class.
pub const SENSITIVE_CLASSES: [&str; 6] = [
    "XWiki.XWikiRights",
    "XWiki.XWikiGlobalRights",
    "XWiki.XWikiGroups",
    "XWiki.XWikiUsers",
    "XWiki.XWikiServerClass",
    MCP_CONFIG_CLASS,
];

/// Whether `reference` is one of the MCP configuration documents (in any wiki). Cheap for
/// every other page (the rows of a query ask it): the page name is compared before the full
/// name is formed.
pub fn is_configuration(reference: &DocumentReference) -> bool {
    matches!(reference.name(), "ServerConfig" | "ServerConfigClass")
        && RESERVED_DOCUMENTS.contains(&reference.local().as_str())
}

/// Refuses the MCP configuration document and its class document in any wiki.
pub fn refuse_configuration(reference: &DocumentReference) -> Result<(), ToolError> {
    if is_configuration(reference) {
        return Err(ToolError::new(format!(
            "Error: \"{}\" holds this server's MCP configuration; write tools never change it \
             (an administrator uses the configuration commands). Nothing was saved.",
            fragment(&reference.to_string())
        ))
        .with_kind(ErrorKind::Forbidden));
    }
    Ok(())
}

/// Refuses the sensitive classes for object and schema writes. `class` is the wiki-local class
/// name.
pub fn refuse_sensitive_class(class: &str) -> Result<(), ToolError> {
    if SENSITIVE_CLASSES.contains(&class.trim()) {
        return Err(ToolError::new(format!(
            "Error: the class \"{}\" controls rights, users or this server's configuration; \
             write tools never change it. Nothing was saved.",
            fragment(class)
        ))
        .with_kind(ErrorKind::Forbidden));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use wiki_store::model::wiki::WikiId;

    use super::*;

    fn page(text: &str) -> DocumentReference {
        DocumentReference::parse(text, &WikiId::main()).unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn the_configuration_is_refused_in_every_wiki() {
        for text in [
            "MCP.ServerConfig",
            "MCP.ServerConfigClass",
            "sub:MCP.ServerConfig",
        ] {
            assert!(
                refuse_configuration(&page(text))
                    .is_err_and(|error| error.message().contains("MCP configuration")),
                "{text}"
            );
        }
        assert_eq!(refuse_configuration(&page("MCP.Notes")), Ok(()));
    }

    #[test]
    fn sensitive_classes_are_refused() {
        assert!(refuse_sensitive_class("XWiki.XWikiRights").is_err());
        assert!(refuse_sensitive_class(" MCP.ServerConfigClass ").is_err());
        assert_eq!(refuse_sensitive_class("Tasks.TaskClass"), Ok(()));
    }
}
