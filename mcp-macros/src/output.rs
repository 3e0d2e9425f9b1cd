//! `#[mcp_output]`: a type becomes a tool's structured output through the runtime's own serde
//! and schemars, so a tool crate that depends on `mcp-runtime` alone can declare one (and its
//! serde and schemars versions are always the ones the runtime serializes and schematizes with).
//! `#[serde(...)]` and `#[schemars(...)]` on the type and its fields work as usual;
//! `#[mcp_output(crate = "...")]` names where a framework re-exports the runtime.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput};

use crate::attr;
use crate::ctxt::Ctxt;
use crate::runtime;

/// `#[mcp_output] item`: the item with the two derives and their crate paths, or an error.
pub(crate) fn mcp_output(args: TokenStream, item: TokenStream) -> TokenStream {
    let cx = Ctxt::new();
    let krate = attr::parse_output_args(&cx, args);
    if let Err(errors) = cx.check() {
        let errors = errors.to_compile_error();
        return quote!(#errors #item);
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
    let private = runtime::private(krate.as_ref());
    // serde and schemars take their crate path as a string.
    let serde = format!("{private}::serde");
    let schemars = format!("{private}::schemars");
    quote! {
        #[derive(#private::serde::Serialize, #private::schemars::JsonSchema)]
        #[serde(crate = #serde)]
        #[schemars(crate = #schemars)]
        #input
    }
}
