//! `#[mcp_output]`: a type becomes a tool's structured output through the runtime's own serde
//! and schemars, so a tool crate that depends on `mcp-runtime` alone can declare one (and its
//! serde and schemars versions are always the ones the runtime serializes and schematizes with).
//! `#[serde(...)]` and `#[schemars(...)]` on the type and its fields work as usual.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput};

/// `#[mcp_output] item`: the item with the two derives and their crate paths, or an error.
pub(crate) fn mcp_output(args: TokenStream, item: TokenStream) -> TokenStream {
    if !args.is_empty() {
        return syn::Error::new_spanned(
            args,
            "#[mcp_output] takes no arguments: shape the output with #[serde(...)] on the type \
             and its fields (e.g. #[serde(rename_all = \"camelCase\")])",
        )
        .to_compile_error();
    }
    let input: DeriveInput = match syn::parse2(item.clone()) {
        Ok(input) => input,
        Err(error) => {
            let error = syn::Error::new(
                error.span(),
                "#[mcp_output] goes on a struct or an enum: the type a tool's results have",
            )
            .to_compile_error();
            return quote!(#error #item);
        }
    };
    if let Data::Union(data) = &input.data {
        let error = syn::Error::new_spanned(
            data.union_token,
            "a union cannot be a tool's output: use a struct or an enum",
        )
        .to_compile_error();
        return quote!(#error #input);
    }
    quote! {
        #[derive(
            ::mcp_runtime::__private::serde::Serialize,
            ::mcp_runtime::__private::schemars::JsonSchema
        )]
        #[serde(crate = "::mcp_runtime::__private::serde")]
        #[schemars(crate = "::mcp_runtime::__private::schemars")]
        #input
    }
}
