//! `#[derive(ParamObject)]`: a struct whose fields are parameters, used as one object parameter
//! (its fields the object's properties) or flattened into tools with `#[param(flatten)]` (its
//! fields their top-level parameters).
//!
//! Emits `impl ParamObject`: the fields' declaration table and their parser, through the same
//! expansion as a tool's (`params.rs`), so an object's fields take every parameter type and
//! `#[param]` key a tool's do. The runtime's blanket impls then make `T`, `Vec<T>` and
//! `Option<T>` parameters. On a mistake it emits the errors plus a stub impl, so a tool naming
//! the type reads the one message, not "not a supported parameter type".

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields};

use crate::attr;
use crate::ctxt::Ctxt;
use crate::fallback;
use crate::model::{self, Field};
use crate::params;
use crate::runtime;
use crate::valid::{self, Role};

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(error) => return error.to_compile_error(),
    };
    let cx = Ctxt::new();
    let container = attr::parse_container_attrs(
        &cx,
        &input.attrs,
        "ParamObject #[param]",
        &["rename_all", "crate"],
    );
    let private = runtime::private(container.krate.as_ref());
    let fields = fields(&cx, &input, container.rename_all.map(|r| r.value));
    valid::check_fields(&cx, &fields, Role::Object);
    super::reject_generics(&cx, &input, "ParamObject");
    match cx.check() {
        Ok(()) => expand(&input, &fields, &private),
        Err(errors) => fallback(&input, errors, &private),
    }
}

fn fields<'a>(
    cx: &Ctxt,
    input: &'a DeriveInput,
    rename_all: Option<crate::case::RenameRule>,
) -> Vec<Field<'a>> {
    const SHAPE: &str = "#[derive(ParamObject)] goes on a struct with named fields, each a \
                         parameter (a property of the object agents send, or a parameter of \
                         the tools that flatten it)";
    match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => model::named_fields(cx, named, rename_all),
            Fields::Unnamed(fields) => {
                cx.error_spanned_by(
                    fields,
                    format!("tuple fields have no property names; {SHAPE}"),
                );
                Vec::new()
            }
            Fields::Unit => {
                cx.error_spanned_by(
                    &input.ident,
                    format!("a unit struct has no properties; {SHAPE}"),
                );
                Vec::new()
            }
        },
        Data::Enum(data) => {
            cx.error_spanned_by(
                data.enum_token,
                format!("{SHAPE}; for a set of string values use #[derive(ParamEnum)]"),
            );
            Vec::new()
        }
        Data::Union(data) => {
            cx.error_spanned_by(data.union_token, SHAPE);
            Vec::new()
        }
    }
}

fn expand(input: &DeriveInput, fields: &[Field<'_>], private: &TokenStream) -> TokenStream {
    let ident = &input.ident;
    let version_check = runtime::version_check(private);
    let len = params::table_len(fields, private);
    let init = params::table_init(fields, private, &len);
    let unique_names = params::unique_names(
        fields,
        private,
        &quote!(<#ident as #private::ParamObject>::PARAMS),
        &ident.to_string(),
    );
    let inits = params::field_inits(fields, private, &quote!(Self::PARAMS));
    let key_checks = params::key_checks(fields, private);
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #private::ParamObject for #ident {
                const PARAMS: &'static [#private::ParamDecl] = &#init;

                fn parse_fields(
                    args: &#private::JsonObject,
                ) -> #private::Result<Self, #private::ParamError> {
                    #private::Result::Ok(Self { #(#inits),* })
                }
            }

            #unique_names

            #key_checks

            #version_check
        };
    }
}

/// The errors, and a stub impl so the tools naming the type read only them.
fn fallback(input: &DeriveInput, errors: syn::Error, private: &TokenStream) -> TokenStream {
    fallback::with_stub(input, errors, |ident| {
        quote! {
            #[automatically_derived]
            impl #private::ParamObject for #ident {
                const PARAMS: &'static [#private::ParamDecl] = &[];

                fn parse_fields(
                    _: &#private::JsonObject,
                ) -> #private::Result<Self, #private::ParamError> {
                    #private::Result::Err(#private::ParamError::Required { name: "" })
                }
            }
        }
    })
}
