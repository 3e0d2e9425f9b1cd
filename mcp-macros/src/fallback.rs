//! What `#[mcp_tool]` emits when the declaration is wrong: our errors, the struct itself (so the
//! author's `impl Execute` and other uses still resolve), and a stub `ToolParams` impl, so the
//! author reads our message rather than a cascade of secondary errors.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields};

/// The item as written, minus the `#[param]` attributes `#[mcp_tool]` consumes.
pub(crate) fn strip_param_attrs(input: &DeriveInput) -> DeriveInput {
    let mut item = input.clone();
    let strip = |fields: &mut Fields| {
        for field in fields.iter_mut() {
            field.attrs.retain(|a| !a.path().is_ident("param"));
        }
    };
    match &mut item.data {
        Data::Struct(data) => strip(&mut data.fields),
        Data::Enum(data) => {
            for variant in &mut data.variants {
                variant.attrs.retain(|a| !a.path().is_ident("param"));
                strip(&mut variant.fields);
            }
        }
        Data::Union(data) => {
            for field in &mut data.fields.named {
                field.attrs.retain(|a| !a.path().is_ident("param"));
            }
        }
    }
    item
}

/// The errors, the cleaned item, and a stub `ToolParams` for a non-generic item.
pub(crate) fn tool(input: &DeriveInput, errors: syn::Error, private: &TokenStream) -> TokenStream {
    let item = strip_param_attrs(input);
    let rest = with_stub(input, errors, |ident| {
        quote! {
            impl #private::ToolParams for #ident {
                fn parse_args(
                    _: &#private::JsonObject,
                ) -> #private::Result<Self, #private::ParamError> {
                    #private::Result::Err(#private::ParamError::Required { name: "" })
                }
            }
        }
    });
    quote! {
        #item
        #rest
    }
}

/// The errors, then for a concrete type the stub impls `stub` writes for its name, so the tools
/// naming the type compile past it and the author reads only the errors. A generic type gets no
/// stub (the errors already refuse it).
pub(crate) fn with_stub(
    input: &DeriveInput,
    errors: syn::Error,
    stub: impl FnOnce(&syn::Ident) -> TokenStream,
) -> TokenStream {
    let errors = errors.to_compile_error();
    if !input.generics.params.is_empty() || input.generics.where_clause.is_some() {
        return errors;
    }
    let stub = stub(&input.ident);
    quote! {
        #errors
        #stub
    }
}

/// The attribute sits on something that is not a struct, enum or union (a fn, an impl, ...).
pub(crate) fn not_a_struct(item: TokenStream, error: syn::Error) -> TokenStream {
    let message = syn::Error::new(
        error.span(),
        "#[mcp_tool] goes on a struct with named fields (one per parameter), or on a unit \
         struct `struct Name;` for a tool without parameters",
    )
    .to_compile_error();
    quote! {
        #message
        #item
    }
}
