//! Code generation for `#[mcp_tool]`: the parser (`impl ToolParams`), the parameter table
//! (`params.rs`, shared with `#[derive(ParamObject)]`) and the `inventory` registration, all
//! naming only the runtime's `__private` module (`runtime.rs`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{DeriveInput, LitStr};

use crate::attr;
use crate::attr::CategoryValue;
use crate::ctxt::Ctxt;
use crate::docs;
use crate::fallback;
use crate::model::Tool;
use crate::params;
use crate::runtime;
use crate::valid;

/// `#[mcp_tool(args)] item`: the struct as written (minus `#[param]`), plus its tool impls, or
/// the errors and a stub when the declaration is wrong.
pub(crate) fn mcp_tool(args: TokenStream, item: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(item.clone()) {
        Ok(input) => input,
        Err(error) => return fallback::not_a_struct(item, error),
    };
    let cx = Ctxt::new();
    let attrs = attr::parse_tool_attrs(&cx, args);
    let private = runtime::private(attrs.krate.as_ref());
    let tool = Tool::from_input(&cx, &input, attrs);
    valid::check(&cx, &tool);
    match cx.check() {
        Ok(()) => expand(&tool, &private),
        Err(errors) => fallback::tool(&input, errors, &private),
    }
}

fn expand(tool: &Tool<'_>, private: &TokenStream) -> TokenStream {
    let item = fallback::strip_param_attrs(tool.input);
    let fields = tool.fields();
    let len = params::table_len(fields, private);
    let init = params::table_init(fields, private, &quote!(__LEN));
    let owner = tool.input.ident.to_string();
    let unique_names = params::unique_names(fields, private, &quote!(&__TABLE), &owner);
    let parser = parser(tool, private);
    let key_checks = params::key_checks(fields, private);
    let declaration = declaration(tool, private);
    let unique_id = unique_id_item(tool);
    let version_check = runtime::version_check(private);
    quote! {
        #item

        #unique_id

        const _: () = {
            const __LEN: #private::usize = #len;
            const __TABLE: [#private::ParamDecl; __LEN] = #init;
            #unique_names
            // A `static`, not a `const`: the parser borrows each spec in place, where a `const`
            // could be copied at every use.
            static __PARAMS: [#private::ParamDecl; __LEN] = __TABLE;

            #parser

            #key_checks

            #version_check

            #private::inventory::submit! { #declaration }
        };
    }
}

/// `impl ToolParams`: unknown names refused listing the accepted ones, then each field parsed by
/// its type (each group by its own parser). Parsing accepts every parameter, `extended` ones
/// included, whatever schema variant the server advertises.
fn parser(tool: &Tool<'_>, private: &TokenStream) -> TokenStream {
    let ident = &tool.input.ident;
    let inits = params::field_inits(tool.fields(), private, &quote!(__PARAMS));
    quote! {
        #[automatically_derived]
        impl #private::ToolParams for #ident {
            fn parse_args(
                args: &#private::JsonObject,
            ) -> #private::Result<Self, #private::ParamError> {
                #private::refuse_unknown(args, &__PARAMS)?;
                #private::Result::Ok(Self { #(#inits),* })
            }
        }
    }
}

/// The `ToolDeclaration` literal submitted to `inventory`.
fn declaration(tool: &Tool<'_>, private: &TokenStream) -> TokenStream {
    let ident = &tool.input.ident;
    let attrs = &tool.attrs;
    let id = attrs
        .id
        .as_ref()
        .map(|id| id.value.value())
        .unwrap_or_default();
    let description = tool
        .doc_lines
        .as_deref()
        .map(docs::description)
        .unwrap_or_default();
    let summary = match &attrs.summary {
        Some(summary) => summary.value.value().trim().to_owned(),
        None => docs::summary(&description),
    };
    let category = match attrs.category.as_ref().map(|c| &c.value) {
        Some(CategoryValue::Literal(text)) => {
            let text = text.value();
            quote!(#text)
        }
        // Checked at compile time, as a literal is by the macro.
        Some(CategoryValue::Constant(constant)) => quote!({
            const _: () = if #constant.trim_ascii().is_empty() {
                #private::panic!("`category` is blank: give the constant text")
            };
            #constant
        }),
        None => quote!("General"),
    };
    let optional = |value: &Option<crate::attr::Spanned<LitStr>>| match value {
        Some(text) => {
            let text = &text.value;
            quote!(#private::Option::Some(#text))
        }
        None => quote!(#private::Option::None),
    };
    let title = optional(&attrs.title);
    let man = optional(&attrs.man);
    let write = attrs.write;
    let idempotent = attrs.idempotent.is_some();
    let additive = attrs.additive.is_some();
    let confirm = attrs.confirm.is_some();
    let open_world = match &attrs.open_world {
        Some(open) => {
            let open = open.value;
            quote!(#private::Option::Some(#open))
        }
        None => quote!(#private::Option::None),
    };
    // Spanned on the struct name: a missing `Execute` impl is reported once, there, through
    // `Execute`'s `on_unimplemented`. The output type's bound is spanned on the type, so a
    // type that cannot be an output is reported where it is named.
    let (invoke, output) = match &attrs.output {
        Some(ty) => {
            let name = crate::model::type_name(ty);
            (
                quote_spanned!(ident.span()=> #private::invoke_structured::<#ident, #ty>),
                quote_spanned!(ty.span()=> #private::Option::Some(
                    #private::OutputDecl::of::<#ty>(#name)
                )),
            )
        }
        None => (
            quote_spanned!(ident.span()=> #private::invoke::<#ident>),
            quote!(#private::Option::None),
        ),
    };
    quote! {
        #private::ToolDeclaration {
            id: #id,
            title: #title,
            summary: #summary,
            description: #description,
            category: #category,
            write: #write,
            idempotent: #idempotent,
            additive: #additive,
            confirm: #confirm,
            open_world: #open_world,
            output: #output,
            man: #man,
            module_path: #private::module_path!(),
            params: &__PARAMS,
            invoke: #invoke,
        }
    }
}

/// A hidden item named after the id at the crate root, so two tools with one id in a crate fail
/// the build with "the name `duplicate_tool_id_<id>` is defined multiple times", pointing at both
/// declarations: the name is the diagnosis (rustc's wording of a redefinition cannot be
/// changed). A `#[macro_export]` macro is the one item a nested module can place at the crate
/// root.
fn unique_id_item(tool: &Tool<'_>) -> TokenStream {
    let Some(id) = &tool.attrs.id else {
        return TokenStream::new();
    };
    let name = unique_id_name(&id.value.value());
    let name = format_ident!("{}", name, span = id.value.span());
    quote! {
        #[doc(hidden)]
        #[macro_export]
        macro_rules! #name {
            () => {};
        }
    }
}

/// `duplicate_tool_id_<id>`; an id with dashes (not identifier characters) gets a distinct prefix
/// and the dash positions, so that distinct ids never share a name.
pub(crate) fn unique_id_name(id: &str) -> String {
    if !id.contains('-') {
        return format!("duplicate_tool_id_{id}");
    }
    let dashes: Vec<String> = id
        .char_indices()
        .filter(|(_, c)| *c == '-')
        .map(|(i, _)| i.to_string())
        .collect();
    format!(
        "duplicate_tool_id_dashed_{}_dash_at_{}",
        id.replace('-', "_"),
        dashes.join("_")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_name_their_hidden_item() {
        assert_eq!(
            unique_id_name("get_history"),
            "duplicate_tool_id_get_history"
        );
        assert_eq!(
            unique_id_name("get-history"),
            "duplicate_tool_id_dashed_get_history_dash_at_3"
        );
    }

    #[test]
    fn distinct_ids_never_share_a_hidden_name() {
        let ids = [
            "a_b",
            "a-b",
            "a__b",
            "a-_b",
            "a_-b",
            "a--b",
            "a_b_dash_at_1",
        ];
        let names: std::collections::BTreeSet<String> =
            ids.iter().map(|id| unique_id_name(id)).collect();
        assert_eq!(names.len(), ids.len());
    }
}
