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
mod valid;

use proc_macro::TokenStream;

/// Declares a tool: `#[mcp_tool(id = "get_history", category = "...")]` on a documented struct
/// whose fields are its parameters. See `mcp_runtime`'s crate docs for every key.
#[proc_macro_attribute]
pub fn mcp_tool(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::mcp_tool(args.into(), item.into()).into()
}

/// A unit enum as a string parameter whose values are the variants in lower snake_case
/// (`#[param(rename = "...")]` on a variant overrides one).
#[proc_macro_derive(ParamEnum, attributes(param))]
pub fn derive_param_enum(input: TokenStream) -> TokenStream {
    derive::param_enum::derive(input.into()).into()
}

/// A struct as a nested object parameter (serde + schemars underneath, via the runtime).
#[proc_macro_derive(ParamObject, attributes(param))]
pub fn derive_param_object(input: TokenStream) -> TokenStream {
    derive::param_object::derive(input.into()).into()
}
