//! `#[derive(ParamObject)]`: a struct as a nested object parameter, parsed by serde and described
//! by schemars, through the runtime's re-exports, so the author depends on neither crate.
//!
//! A derive cannot add derives to its input, so this one emits a hidden mirror struct with the
//! same fields that derives `Deserialize` and `JsonSchema`, and implements both for the real type
//! by delegating to it, plus the `ParamObject` marker (the runtime's blanket impls then make `T`,
//! `Vec<T>` and `Option<T>` parameters).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields};

use crate::attr;
use crate::case::RenameRule;
use crate::ctxt::Ctxt;
use crate::docs;
use crate::model::ident_name;

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(error) => return error.to_compile_error(),
    };
    let cx = Ctxt::new();
    let fields = fields(&cx, &input);
    let rename_all = attr::parse_container_rename_all(&cx, &input.attrs, "ParamObject #[param]");
    check_unique_properties(&cx, &fields, rename_all.as_ref().map(|r| r.value));
    super::reject_generics(&cx, &input, "ParamObject");
    match cx.check() {
        Ok(()) => expand(&input, &fields, rename_all.map(|r| r.value.spelling())),
        Err(errors) => errors.to_compile_error(),
    }
}

/// One field of the object, with its optional wire rename.
struct ObjectField<'a> {
    original: &'a syn::Field,
    rename: Option<String>,
}

fn fields<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Vec<ObjectField<'a>> {
    const SHAPE: &str = "#[derive(ParamObject)] goes on a struct with named fields, each a \
                         property of the object agents send";
    let named = match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => named,
            Fields::Unnamed(fields) => {
                cx.error_spanned_by(
                    fields,
                    format!("tuple fields have no property names; {SHAPE}"),
                );
                return Vec::new();
            }
            Fields::Unit => {
                cx.error_spanned_by(
                    &input.ident,
                    format!("a unit struct has no properties; {SHAPE}"),
                );
                return Vec::new();
            }
        },
        Data::Enum(data) => {
            cx.error_spanned_by(
                data.enum_token,
                format!("{SHAPE}; for a set of string values use #[derive(ParamEnum)]"),
            );
            return Vec::new();
        }
        Data::Union(data) => {
            cx.error_spanned_by(data.union_token, SHAPE);
            return Vec::new();
        }
    };
    named
        .named
        .iter()
        .map(|field| {
            if docs::doc_lines(&field.attrs).is_none()
                && let Some(ident) = &field.ident
            {
                cx.error_spanned_by(
                    ident,
                    format!(
                        "missing doc comment on property `{ident}`: write `/// ...` above the \
                         field; it is the property's description agents read"
                    ),
                );
            }
            let rename = attr::parse_rename_only(cx, &field.attrs, "ParamObject field #[param]")
                .map(|r| r.value);
            ObjectField {
                original: field,
                rename,
            }
        })
        .collect()
}

/// Two fields sent under one property name would make one of them unreachable.
fn check_unique_properties(cx: &Ctxt, fields: &[ObjectField<'_>], rename_all: Option<RenameRule>) {
    let mut seen: Vec<(String, &syn::Ident)> = Vec::new();
    for field in fields {
        let Some(ident) = &field.original.ident else {
            continue;
        };
        let property = match (&field.rename, rename_all) {
            (Some(rename), _) => rename.clone(),
            (None, Some(rule)) => rule.apply(&ident_name(ident)),
            (None, None) => ident_name(ident),
        };
        if let Some((_, first)) = seen.iter().find(|(name, _)| *name == property) {
            cx.error_spanned_by(
                ident,
                format!(
                    "fields `{first}` and `{ident}` are both sent as property `{property}`; \
                     rename one with #[param(rename = \"...\")]"
                ),
            );
        }
        seen.push((property, ident));
    }
}

fn expand(
    input: &DeriveInput,
    fields: &[ObjectField<'_>],
    rename_all: Option<&'static str>,
) -> TokenStream {
    let private = quote!(::mcp_runtime::__private);
    let ident = &input.ident;
    let mirror = format_ident!("__{}ParamObjectMirror", ident);
    let names: Vec<_> = fields
        .iter()
        .filter_map(|f| f.original.ident.as_ref())
        .collect();
    let mirror_fields = fields.iter().map(|field| {
        let docs = field
            .original
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("doc"));
        let name = &field.original.ident;
        let ty = &field.original.ty;
        let rename = field
            .rename
            .as_ref()
            .map(|rename| quote!(#[serde(rename = #rename)]));
        quote! {
            #(#docs)*
            #rename
            #name: #ty
        }
    });
    let rename_all = rename_all.map(|rule| quote!(#[serde(rename_all = #rule)]));
    quote! {
        const _: () = {
            #[derive(#private::serde::Deserialize, #private::schemars::JsonSchema)]
            #[serde(crate = "::mcp_runtime::__private::serde", deny_unknown_fields)]
            #[schemars(crate = "::mcp_runtime::__private::schemars")]
            #rename_all
            struct #mirror {
                #(#mirror_fields),*
            }

            #[automatically_derived]
            impl<'de> #private::serde::Deserialize<'de> for #ident {
                fn deserialize<__D>(deserializer: __D) -> #private::Result<Self, __D::Error>
                where
                    __D: #private::serde::Deserializer<'de>,
                {
                    let mirror =
                        <#mirror as #private::serde::Deserialize<'de>>::deserialize(deserializer)?;
                    #private::Result::Ok(Self { #(#names: mirror.#names),* })
                }
            }

            #[automatically_derived]
            impl #private::schemars::JsonSchema for #ident {
                fn schema_name() -> #private::Cow<'static, #private::str> {
                    #private::Cow::Borrowed(#private::stringify!(#ident))
                }

                fn schema_id() -> #private::Cow<'static, #private::str> {
                    #private::Cow::Borrowed(#private::concat!(
                        #private::module_path!(),
                        "::",
                        #private::stringify!(#ident)
                    ))
                }

                fn json_schema(
                    generator: &mut #private::schemars::SchemaGenerator,
                ) -> #private::schemars::Schema {
                    <#mirror as #private::schemars::JsonSchema>::json_schema(generator)
                }
            }

            #[automatically_derived]
            impl #private::ParamObject for #ident {}
        };
    }
}
