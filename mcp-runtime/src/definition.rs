//! What a client sees of one tool (`tools/list`), derived from its declaration: plain data that
//! the transport maps to its protocol types.

use std::sync::Arc;

use crate::declaration::ToolDeclaration;
use crate::param::JsonObject;
use crate::schema::input_schema;

/// The advertised definition of one tool, for one reach variant.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    /// The tool's name: its id.
    pub name: &'static str,
    /// Optional human title.
    pub title: Option<&'static str>,
    /// The whole doc comment.
    pub description: &'static str,
    /// The input schema, shared (transports hand out `Arc` clones, never rebuild it).
    pub input_schema: Arc<JsonObject>,
    /// Behaviour hints, derived from `write`.
    pub annotations: ToolAnnotations,
}

/// The MCP behaviour hints of a tool. A read tool is `readOnlyHint: true`; a write tool says
/// `readOnlyHint: false` and `destructiveHint: true` explicitly (it may overwrite or delete
/// content), rather than leaving the client to assume a default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolAnnotations {
    /// The tool does not change its environment.
    pub read_only_hint: bool,
    /// The tool may perform destructive updates; `None` for read tools, where it is meaningless.
    pub destructive_hint: Option<bool>,
}

impl ToolAnnotations {
    /// The hints that follow from `write`.
    pub const fn for_write(write: bool) -> Self {
        if write {
            Self {
                read_only_hint: false,
                destructive_hint: Some(true),
            }
        } else {
            Self {
                read_only_hint: true,
                destructive_hint: None,
            }
        }
    }
}

impl ToolDefinition {
    /// Builds the definition of `declaration` for an endpoint with or without cross-wiki reach.
    /// Not cheap (each parameter's schema is generated): the registry builds it once per tool
    /// and reach variant.
    pub fn build(declaration: &ToolDeclaration, cross_wiki_reach: bool) -> Self {
        Self {
            name: declaration.id,
            title: declaration.title,
            description: declaration.description,
            input_schema: Arc::new(input_schema(declaration, cross_wiki_reach)),
            annotations: ToolAnnotations::for_write(declaration.write),
        }
    }
}
