//! `#[derive(ParamEnum)]`: a unit enum as a string parameter with a fixed set of values.
//!
//! Emits `ParamEnum` (the wire values and the variants' doc comments), `Param` (delegating to the
//! runtime's `enum_schema` and `enum_parse`) and `DerivedParam` (so `Option<E>` is a parameter
//! too). On a mistake, the errors plus stub impls, so a tool naming the type reads only them.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields};

use crate::attr;
use crate::case::variant_wire_name;
use crate::ctxt::Ctxt;
use crate::docs;
use crate::fallback;
use crate::model::ident_name;
use crate::runtime;

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(error) => return error.to_compile_error(),
    };
    let cx = Ctxt::new();
    let container =
        attr::parse_container_attrs(&cx, &input.attrs, "ParamEnum #[param]", &["crate"]);
    let private = runtime::private(container.krate.as_ref());
    let variants = variants(&cx, &input);
    super::reject_generics(&cx, &input, "ParamEnum");
    match cx.check() {
        Ok(()) => expand(&input, &variants, &private),
        Err(errors) => fallback(&input, errors, &private),
    }
}

/// One variant: its name, its wire value, its doc comment as one line (empty without one).
struct Variant<'a> {
    ident: &'a syn::Ident,
    wire: String,
    doc: String,
}

/// The variants in declaration order.
fn variants<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Vec<Variant<'a>> {
    let Data::Enum(data) = &input.data else {
        cx.error_spanned_by(
            &input.ident,
            "#[derive(ParamEnum)] goes on an enum of unit variants (`enum Mode { List, Diff }`); \
             for a nested object use #[derive(ParamObject)]",
        );
        return Vec::new();
    };
    if data.variants.is_empty() {
        cx.error_spanned_by(
            &input.ident,
            "#[derive(ParamEnum)] needs at least one variant: an agent could send no valid value",
        );
    }
    let mut variants: Vec<Variant<'_>> = Vec::new();
    for variant in &data.variants {
        if !matches!(variant.fields, Fields::Unit) {
            cx.error_spanned_by(
                &variant.fields,
                format!(
                    "variant `{}` carries data; a ParamEnum variant is a plain name sent as a \
                     string (use #[derive(ParamObject)] for structured values)",
                    variant.ident
                ),
            );
        }
        let rename = attr::parse_rename_only(cx, &variant.attrs, "ParamEnum variant #[param]");
        let wire = match &rename {
            Some(rename) => rename.value.clone(),
            None => variant_wire_name(&ident_name(&variant.ident)),
        };
        if wire.trim().is_empty() {
            cx.error_spanned_by(&variant.ident, "a ParamEnum value cannot be blank");
        }
        if let Some(first) = variants.iter().find(|v| v.wire == wire) {
            cx.error_spanned_by(
                &variant.ident,
                format!(
                    "variants `{}` and `{}` both have the wire value `{wire}`; rename one \
                     with #[param(rename = \"...\")]",
                    first.ident, variant.ident
                ),
            );
        }
        // One line per value in the parameter's description: paragraphs become sentences.
        let doc = docs::doc_lines(&variant.attrs)
            .map(|lines| {
                docs::description(&lines)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        variants.push(Variant {
            ident: &variant.ident,
            wire,
            doc,
        });
    }
    variants
}

fn expand(input: &DeriveInput, variants: &[Variant<'_>], private: &TokenStream) -> TokenStream {
    let ident = &input.ident;
    let version_check = runtime::version_check(private);
    let names: Vec<_> = variants.iter().map(|v| v.ident).collect();
    let wires: Vec<_> = variants.iter().map(|v| v.wire.as_str()).collect();
    let docs: Vec<_> = variants.iter().map(|v| v.doc.as_str()).collect();
    quote! {
        #[automatically_derived]
        impl #private::ParamEnum for #ident {
            const VALUES: &'static [&'static #private::str] = &[#(#wires),*];

            const DOCS: &'static [&'static #private::str] = &[#(#docs),*];

            fn from_wire(value: &#private::str) -> #private::Option<Self> {
                match value {
                    #(#wires => #private::Option::Some(Self::#names),)*
                    _ => #private::Option::None,
                }
            }

            fn to_wire(&self) -> &'static #private::str {
                match self {
                    #(Self::#names => #wires,)*
                }
            }
        }

        #[automatically_derived]
        impl #private::Param for #ident {
            fn schema(spec: &#private::ParamSpec) -> #private::JsonObject {
                #private::enum_schema::<Self>(spec)
            }

            fn is_required(_spec: &#private::ParamSpec) -> #private::bool {
                true
            }

            fn parse(
                value: #private::Option<&#private::serde_json::Value>,
                spec: &#private::ParamSpec,
            ) -> #private::Result<Self, #private::ParamError> {
                #private::enum_parse::<Self>(value, spec)
            }
        }

        #[automatically_derived]
        impl #private::DerivedParam for #ident {}

        #version_check
    }
}

/// The errors, and stub impls so the tools naming the type read only them.
fn fallback(input: &DeriveInput, errors: syn::Error, private: &TokenStream) -> TokenStream {
    fallback::with_stub(input, errors, |ident| {
        quote! {
            #[automatically_derived]
            impl #private::Param for #ident {
                fn schema(_: &#private::ParamSpec) -> #private::JsonObject {
                    #private::JsonObject::new()
                }

                fn is_required(_: &#private::ParamSpec) -> #private::bool {
                    true
                }

                fn parse(
                    _: #private::Option<&#private::serde_json::Value>,
                    spec: &#private::ParamSpec,
                ) -> #private::Result<Self, #private::ParamError> {
                    #private::Result::Err(#private::ParamError::Required { name: spec.name })
                }
            }

            #[automatically_derived]
            impl #private::DerivedParam for #ident {}
        }
    })
}
