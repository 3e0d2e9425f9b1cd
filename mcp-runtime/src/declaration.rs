//! What `#[mcp_tool]` submits to `inventory`: a tool as plain static data plus fn pointers.
//!
//! CONTRACT between `mcp-macros` (which emits one `inventory::submit!` of a
//! [`ToolDeclaration`] per tool) and the registry (which collects, checks and serves them).

use std::future::Future;
use std::pin::Pin;

use crate::context::ToolContext;
use crate::param::{JsonObject, ParamDecl, ParamError};
use crate::structured::OutputDecl;
use crate::tool::ToolResult;

/// A boxed, `Send` future returned by a tool invocation.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The static declaration of one tool, as written by its author.
#[derive(Debug, Clone, Copy)]
pub struct ToolDeclaration {
    /// The id: registration key AND advertised name (`^[a-zA-Z0-9_-]{1,64}$`).
    pub id: &'static str,
    /// Optional human title (`title = "..."`).
    pub title: Option<&'static str>,
    /// The catalog tagline: `summary = "..."` or the doc comment's first sentence.
    pub summary: &'static str,
    /// The whole struct doc comment: the advertised description.
    pub description: &'static str,
    /// `category = "..."`, default `"General"`.
    pub category: &'static str,
    /// `write`: the tool changes content.
    pub write: bool,
    /// `idempotent` (write tools): calling it again with the same arguments changes nothing
    /// more (`idempotentHint`).
    pub idempotent: bool,
    /// `additive` (write tools): it only adds, never overwrites or deletes
    /// (`destructiveHint: false`).
    pub additive: bool,
    /// `confirm` (write tools): every call asks the person behind the client before it writes,
    /// whatever the wiki's configuration (the bundled deletes say it). What "asking" is, is the
    /// server's: the wiki server's write door asks; the framework only carries the flag.
    pub confirm: bool,
    /// `open_world = true|false`: whether it reaches beyond its own system (`openWorldHint`);
    /// `None` is `false`: the hint is always stated, never left to the client's `true`.
    pub open_world: Option<bool>,
    /// `output = T`: the structured output type, its schema derived from `T`.
    pub output: Option<OutputDecl>,
    /// `man = "..."`: long prose kept out of the advertised definition.
    pub man: Option<&'static str>,
    /// `module_path!()` at the declaration, to name both sides of a duplicate.
    pub module_path: &'static str,
    /// The parameters, in declaration order.
    pub params: &'static [ParamDecl],
    /// Parse the arguments (every parameter, `extended` ones included) and run the tool.
    pub invoke: for<'a> fn(&'a ToolContext, &'a JsonObject) -> BoxFuture<'a, ToolResult>,
}

inventory::collect!(ToolDeclaration);

/// Implemented by `#[mcp_tool]` for the annotated struct: the generated argument parser.
pub trait ToolParams: Sized {
    /// Parse arguments: unknown keys refused listing the accepted ones, then each field.
    fn parse_args(args: &JsonObject) -> Result<Self, ParamError>;
}

/// Hand-built declarations for the unit tests of the registry and the tool sets.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::tool::ToolOutput;

    fn invoke<'a>(_: &'a ToolContext, _: &'a JsonObject) -> BoxFuture<'a, ToolResult> {
        Box::pin(async { Ok(ToolOutput::text("ok")) })
    }

    /// A parameterless tool `id` declared in `module_path`, writing or not.
    pub(crate) const fn declaration(
        id: &'static str,
        write: bool,
        module_path: &'static str,
    ) -> ToolDeclaration {
        ToolDeclaration {
            id,
            title: None,
            summary: "A tool.",
            description: "A tool.",
            category: "General",
            write,
            idempotent: false,
            additive: false,
            confirm: false,
            open_world: None,
            output: None,
            man: None,
            module_path,
            params: &[],
            invoke,
        }
    }
}
