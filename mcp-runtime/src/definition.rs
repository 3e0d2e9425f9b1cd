//! What a client sees of one tool (`tools/list`), derived from its declaration: plain data that
//! the transport maps to its protocol types.

use std::sync::Arc;

use crate::declaration::ToolDeclaration;
use crate::param::JsonObject;
use crate::schema::{SchemaVariant, input_schema};

/// The advertised definition of one tool, in one schema variant.
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
    /// The output schema of a tool declared with `output = T`, derived from `T`, shared.
    pub output_schema: Option<Arc<JsonObject>>,
    /// Behaviour hints, from `write`, `idempotent`, `additive` and `open_world`.
    pub annotations: ToolAnnotations,
}

/// The MCP behaviour hints of a tool. A read tool is `readOnlyHint: true`; a write tool says
/// `readOnlyHint: false` and its `destructiveHint` explicitly (`true` unless declared
/// `additive`: it may overwrite or delete content), rather than leaving the client to assume a
/// default. `idempotentHint` is said for write tools (a read tool is idempotent by nature);
/// `openWorldHint` only when the declaration says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolAnnotations {
    /// The tool does not change its environment.
    pub read_only_hint: bool,
    /// The tool may perform destructive updates; `None` for read tools, where it is meaningless.
    pub destructive_hint: Option<bool>,
    /// Calling it twice with the same arguments has no further effect; `None` for read tools.
    pub idempotent_hint: Option<bool>,
    /// It interacts with an open world (the web) rather than its own system; `None` when the
    /// declaration does not say.
    pub open_world_hint: Option<bool>,
}

impl ToolAnnotations {
    /// The hints `declaration` states.
    pub const fn of(declaration: &ToolDeclaration) -> Self {
        let open_world_hint = declaration.open_world;
        if declaration.write {
            Self {
                read_only_hint: false,
                destructive_hint: Some(!declaration.additive),
                idempotent_hint: Some(declaration.idempotent),
                open_world_hint,
            }
        } else {
            Self {
                read_only_hint: true,
                destructive_hint: None,
                idempotent_hint: None,
                open_world_hint,
            }
        }
    }
}

impl ToolDefinition {
    /// Builds the definition of `declaration` in `variant`, with `output_schema` (the registry
    /// derives and checks it once per tool). Not cheap (each parameter's schema is generated):
    /// the registry builds it once per tool and variant.
    pub fn build(
        declaration: &ToolDeclaration,
        variant: SchemaVariant,
        output_schema: Option<Arc<JsonObject>>,
    ) -> Self {
        Self {
            name: declaration.id,
            title: declaration.title,
            description: declaration.description,
            input_schema: Arc::new(input_schema(declaration, variant)),
            output_schema,
            annotations: ToolAnnotations::of(declaration),
        }
    }
}
