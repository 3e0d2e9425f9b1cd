//! The per-wiki MCP configuration, read from an object on the wiki's configuration document; reading never fails open.

/// The per-wiki MCP configuration, read from an object on the wiki's configuration document; reading never fails open.
pub trait ConfigStore {}
