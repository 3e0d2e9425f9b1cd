//! `#[mcp_tool]` and the parameter derives. Use them through `mcp_runtime::prelude`: the code
//! they generate names only `::mcp_runtime::__private::…`, so a tool crate depends on
//! `mcp-runtime` alone.
//!
//! Layout (after thiserror-impl and serde_derive): `attr.rs` parses the keys, `model.rs` builds
//! a model borrowing the author's tokens, `valid.rs` checks it with every error gathered in
//! `ctxt.rs`, `expand.rs` generates, `fallback.rs` emits errors without a cascade.

mod attr;
mod case;
mod ctxt;
mod derive;
mod docs;
mod expand;
mod fallback;
mod model;
mod output;
mod params;
mod runtime;
mod valid;

use proc_macro::TokenStream;

/// Declares a tool: the struct's fields are its parameters, its doc comment the description.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// Read a document's revision history.
/// ///
/// /// The newest revision comes first.
/// #[mcp_tool(id = "get_history", category = "Search and Navigation")]
/// pub struct GetHistory {
///     /// The document to read.
///     reference: String,
///     /// Revisions per page (default 20, at most 100).
///     #[param(default = 20, range = 1..=100)]
///     limit: u32,
/// }
///
/// impl Execute for GetHistory {
///     async fn execute(self, _ctx: &ToolContext) -> ToolResult {
///         Ok(ToolOutput::text(format!("The last {} revisions of {}", self.limit, self.reference)))
///     }
/// }
/// ```
///
/// Tool keys: `id` (required, `^[a-zA-Z0-9_-]{1,64}$`: the advertised name and the key a server
/// enables the tool by), `name` (optional, must equal `id`), `write` (the tool changes content),
/// `category` (default "General"), `summary` (default: the doc comment's first sentence), `man`
/// (long prose for the `man` tool only), `title`, `rename_all` (serde's spellings), `output = T`
/// (structured output: the `outputSchema` is derived from `T`, and the tool implements
/// `Execute<Structured<T>>`), `idempotent` and `additive` (write tools: `idempotentHint`, and
/// `destructiveHint: false` for a write that only adds), `open_world = true|false`
/// (`openWorldHint`; `false` when not given), `confirm` (write tools: every call asks the
/// person behind the client before it writes, whatever the server's own settings, and is
/// refused when the client cannot ask), `crate =
/// "path"` (where a framework built on mcp-runtime re-exports it, as serde's `crate` attribute:
/// generated code then names the runtime through that path, so the framework's authors need not
/// depend on mcp-runtime themselves; `#[param(crate = "...")]` on the derived types and
/// `#[mcp_output(crate = "...")]` do the same).
///
/// Field keys in `#[param(...)]`: `rename = "wire"`, `default = N` and `range = a..=b` or
/// `range = a..` (a minimum alone, e.g. a 1-based position) (numbers: `i64`, `u32`, `u64`,
/// `usize`, `f64` and their `Option`s), `clamp` (a value above `range` is lowered to its maximum
/// instead of refused; one below it is still refused), `required` (collections, optional unless
/// marked), `raw` (text kept exactly as
/// sent), `extended` (an optional parameter advertised only in the extended schema variant),
/// `flatten` (a `ParamObject` whose fields are this tool's own parameters). Which key applies to
/// which type is the runtime's to say: a key on a type it does not fit is a compile error on the
/// key.
///
/// Every expansion checks that the runtime is these macros' own version: depend on mcp-runtime
/// (whose prelude re-exports the macros) rather than on this crate, or pin both to one version.
///
/// The struct and each field need a doc comment; a unit or empty struct is a tool without
/// parameters. The type also needs an `Execute` impl. Mistakes are compile errors on the
/// offending token.
#[proc_macro_attribute]
pub fn mcp_tool(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::mcp_tool(args.into(), item.into()).into()
}

/// A tool's structured output type: derives `Serialize` and `JsonSchema` through
/// mcp-runtime's own serde and schemars (`#[serde]`/`#[schemars]` attributes work as usual).
#[proc_macro_attribute]
pub fn mcp_output(args: TokenStream, item: TokenStream) -> TokenStream {
    output::mcp_output(args.into(), item.into()).into()
}

/// A unit enum as a string parameter whose values are the variants in lower snake_case
/// (`#[param(rename = "...")]` on a variant overrides one); the variants' doc comments describe
/// the values in the parameter's description.
#[proc_macro_derive(ParamEnum, attributes(param))]
pub fn derive_param_enum(input: TokenStream) -> TokenStream {
    derive::param_enum::derive(input.into()).into()
}

/// A struct whose fields are parameters (each with a doc comment and the `#[param]` keys of a
/// tool's fields): one object parameter (`T`, `Vec<T>`, `Option<T>`), or, flattened into tools
/// with `#[param(flatten)]`, a group of top-level parameters they share.
#[proc_macro_derive(ParamObject, attributes(param))]
pub fn derive_param_object(input: TokenStream) -> TokenStream {
    derive::param_object::derive(input.into()).into()
}
