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

/// The MCP behaviour hints of a tool, all four always stated rather than left to the client's
/// defaults (which assume a destructive, non-idempotent tool reaching an open world). A read
/// tool is `readOnlyHint: true`, `destructiveHint: false`, `idempotentHint: true`; a write tool
/// says `destructiveHint: true` unless declared `additive` (it may overwrite or delete
/// content) and `idempotentHint` as declared. `openWorldHint` is `false` unless the declaration
/// says `open_world = true`: a tool serves its own system unless it reaches the web.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolAnnotations {
    /// The tool does not change its environment.
    pub read_only_hint: bool,
    /// The tool may perform destructive updates (never for a read tool).
    pub destructive_hint: bool,
    /// Calling it twice with the same arguments has no further effect (always for a read tool).
    pub idempotent_hint: bool,
    /// It interacts with an open world (the web) rather than its own system.
    pub open_world_hint: bool,
}

impl ToolAnnotations {
    /// The hints `declaration` states.
    pub const fn of(declaration: &ToolDeclaration) -> Self {
        let open_world_hint = matches!(declaration.open_world, Some(true));
        if declaration.write {
            Self {
                read_only_hint: false,
                destructive_hint: !declaration.additive,
                idempotent_hint: declaration.idempotent,
                open_world_hint,
            }
        } else {
            Self {
                read_only_hint: true,
                destructive_hint: false,
                idempotent_hint: true,
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
