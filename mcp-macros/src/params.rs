//! The parameter table of a tool or a `ParamObject`, and the parser of its fields: one
//! expansion for both, since a `ParamObject`'s fields are parameters too (nested as an object's
//! properties, or flattened into a tool with `#[param(flatten)]`).
//!
//! Each field's schema and parser come from one place, `<FieldType as Param>`, so they cannot
//! drift; the generated code only wires names, docs and `#[param]` values into `ParamSpec`s. A
//! flattened group's declarations take its field's place in the table, assembled in const
//! evaluation (`concat_params`), so the table stays one `static` a schema and `man` read as is.
//! Which keys apply to which types is checked by the compiler, through the runtime's key traits
//! (`keys`): one const item per key given, spanned on the key.

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned as _;

use crate::attr::{NumberLit, RangeLit};
use crate::docs;
use crate::model::{self, Field};

/// The table's length: a constant expression (a group's length is its `PARAMS.len()`).
pub(crate) fn table_len(fields: &[Field<'_>], private: &TokenStream) -> TokenStream {
    let mut len = quote!(0usize);
    for field in fields {
        len.extend(part_len(field, private));
    }
    len
}

/// `+ 1`, or `+ <Group as ParamObject>::PARAMS.len()` for a flattened field.
fn part_len(field: &Field<'_>, private: &TokenStream) -> TokenStream {
    if field.is_group() {
        let ty = &field.original.ty;
        let params = quote_spanned!(ty.span()=> <#ty as #private::ParamObject>::PARAMS);
        quote!(+ #params.len())
    } else {
        quote!(+ 1usize)
    }
}

/// The table's initializer, of type `[ParamDecl; len]`: each field's declaration or group's
/// declarations, in order.
pub(crate) fn table_init(
    fields: &[Field<'_>],
    private: &TokenStream,
    len: &TokenStream,
) -> TokenStream {
    let parts = fields.iter().map(|field| {
        let ty = &field.original.ty;
        if field.is_group() {
            quote_spanned!(ty.span()=> <#ty as #private::ParamObject>::PARAMS)
        } else {
            let decl = param_decl(field, private);
            quote!(&[#decl])
        }
    });
    quote!(#private::concat_params::<{ #len }>(&[#(#parts),*]))
}

/// With a `#[param(flatten)]` group among `fields`, a const item refusing two parameters of one
/// name in `table` (the macro refuses two fields of one name itself; only a group can bring a
/// duplicate in), spanned on the first group's `flatten`. `owner` is the struct's name.
pub(crate) fn unique_names(
    fields: &[Field<'_>],
    private: &TokenStream,
    table: &TokenStream,
    owner: &str,
) -> TokenStream {
    let Some(flatten) = fields.iter().find_map(|field| field.attrs.flatten.as_ref()) else {
        return TokenStream::new();
    };
    let duplicate = format!(
        "two parameters of `{owner}` have the same name: one of its fields and a field of a \
         #[param(flatten)] group, or fields of two groups; rename one with #[param(rename = \
         \"...\")]"
    );
    let check = quote!(const _: () = #private::unique_names(#table, #duplicate););
    respan(check, span_of(&flatten.tokens))
}

/// One `ParamDecl`: the field's spec and its type's schema entry points, spanned on the type so
/// an unsupported type is reported there, through `Param`'s `on_unimplemented`.
fn param_decl(field: &Field<'_>, private: &TokenStream) -> TokenStream {
    let ty = &field.original.ty;
    let wire = &field.wire;
    let description = field
        .doc_lines
        .as_deref()
        .map(docs::description)
        .unwrap_or_default();
    let attrs = &field.attrs;
    let mut settings = Vec::new();
    if let Some(default) = &attrs.default {
        let value = number(default.value, private);
        settings.push(quote!(default: #private::Option::Some(#value)));
    }
    if let Some(range) = &attrs.range {
        let bounds = range_bounds(range.value, private);
        settings.push(quote!(range: #private::Option::Some(#bounds)));
    }
    for (flag, set) in [
        ("clamp", attrs.clamp.is_some()),
        ("raw", attrs.raw.is_some()),
        ("required", attrs.required.is_some()),
        ("extended", attrs.extended.is_some()),
    ] {
        if set {
            let flag = syn::Ident::new(flag, Span::call_site());
            settings.push(quote!(#flag: true));
        }
    }
    let schema = quote_spanned!(ty.span()=> <#ty as #private::Param>::schema);
    let required = quote_spanned!(ty.span()=> <#ty as #private::Param>::is_required);
    quote! {
        #private::ParamDecl {
            spec: #private::ParamSpec {
                #(#settings,)*
                ..#private::ParamSpec::new(#wire, #description)
            },
            schema: #schema,
            required: #required,
        }
    }
}

fn number(value: NumberLit, private: &TokenStream) -> TokenStream {
    match value {
        NumberLit::Int(value) => quote!(#private::Number::Int(#value)),
        NumberLit::Float(value) => quote!(#private::Number::Float(#value)),
    }
}

/// `Self { .. }`'s field initializers: each field parsed from `args` by its type with its spec
/// (`table` is the path of the table, a `static` or `Self::PARAMS`), each group by its own
/// parser.
pub(crate) fn field_inits(
    fields: &[Field<'_>],
    private: &TokenStream,
    table: &TokenStream,
) -> Vec<TokenStream> {
    let mut at = quote!(0usize);
    let mut inits = Vec::new();
    for field in fields {
        let name = field.ident;
        let ty = &field.original.ty;
        if field.is_group() {
            let parse = quote_spanned!(ty.span()=> <#ty as #private::ParamObject>::parse_fields);
            inits.push(quote!(#name: #parse(args)?));
        } else {
            let wire = &field.wire;
            let parse = quote_spanned!(ty.span()=> <#ty as #private::Param>::parse);
            inits.push(quote!(#name: #parse(args.get(#wire), &#table[#at].spec)?));
        }
        at.extend(part_len(field, private));
    }
    inits
}

/// One const item per `#[param]` key given, checking through the runtime's key traits that the
/// key applies to the field's type (and that a `default` or `range` literal fits it), spanned
/// on the key so the compiler's message lands there.
pub(crate) fn key_checks(fields: &[Field<'_>], private: &TokenStream) -> TokenStream {
    let mut checks = TokenStream::new();
    for field in fields.iter().filter(|field| !field.is_group()) {
        let ty = &field.original.ty;
        let type_name = model::type_name(ty);
        let attrs = &field.attrs;
        let keys = quote!(#private::keys);
        if let Some(default) = &attrs.default {
            let value = number(default.value, private);
            let messages =
                number_messages(&format!("`default = {}`", default.value), &type_name, &keys);
            let check = quote!(const _: () = #keys::default_key::<#ty>(#value, &#messages););
            checks.extend(respan(check, span_of(&default.tokens)));
        }
        if let Some(range) = &attrs.range {
            let messages =
                number_messages(&format!("`range = {}`", range.value), &type_name, &keys);
            let bounds = range_bounds(range.value, private);
            let check = quote!(const _: () = #keys::range_key::<#ty>(#bounds, &#messages););
            checks.extend(respan(check, span_of(&range.tokens)));
        }
        for (function, flag) in [
            ("clamp_key", &attrs.clamp),
            ("raw_key", &attrs.raw),
            ("required_key", &attrs.required),
            ("extended_key", &attrs.extended),
        ] {
            if let Some(flag) = flag {
                let function = syn::Ident::new(function, Span::call_site());
                let check = quote!(const _: () = #keys::#function::<#ty>(););
                checks.extend(respan(check, span_of(&flag.tokens)));
            }
        }
    }
    checks
}

/// `(min, Some(max))`, or `(min, None)` for a minimum alone: `ParamSpec::range` as written.
fn range_bounds(range: RangeLit, private: &TokenStream) -> TokenStream {
    let min = number(range.min, private);
    let max = match range.max {
        Some(max) => {
            let max = number(max, private);
            quote!(#private::Option::Some(#max))
        }
        None => quote!(#private::Option::None),
    };
    quote!((#min, #max))
}

/// What const evaluation says when `literal` (a `default` or `range` as written) does not fit
/// the field's type.
fn number_messages(literal: &str, type_name: &str, keys: &TokenStream) -> TokenStream {
    let not_integer = format!(
        "{literal} is not a whole number, and `{type_name}` holds whole numbers: write an \
         integer such as `1`, or declare the field `f64` for fractional values"
    );
    let too_low = format!(
        "{literal} is below what `{type_name}` can hold: use a value within the type (u32, u64 \
         and usize start at 0), or declare the field `i64` for negative values"
    );
    let too_high = format!(
        "{literal} is above what `{type_name}` can hold: use a value within the type, or a \
         wider one (u64)"
    );
    quote!(#keys::NumberMessages {
        not_integer: #not_integer,
        too_low: #too_low,
        too_high: #too_high,
    })
}

/// The span of a key's tokens (its first token: the key's name).
fn span_of(tokens: &TokenStream) -> Span {
    tokens
        .clone()
        .into_iter()
        .next()
        .map_or_else(Span::call_site, |token| token.span())
}

/// `tokens` with every span set to `span`, so a compiler error anywhere in them lands there.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|token| match token {
            TokenTree::Group(group) => {
                let mut respanned = Group::new(group.delimiter(), respan(group.stream(), span));
                respanned.set_span(span);
                TokenTree::Group(respanned)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect::<TokenStream>()
        .into_token_stream()
}
