//! The typed model of one `#[mcp_tool]` struct. It borrows the author's syntax tree, so every
//! later error still spans the author's own tokens.
//!
//! There is no type table here: each field's type brings its schema and parser through the
//! runtime's `Param` trait. The few syntactic type tests below only decide which `#[param]` keys
//! make sense on a field (`range` on an integer, `raw` on a string).

use syn::{Data, DeriveInput, Fields, GenericArgument, Ident, PathArguments, Type};

use crate::attr::{self, FieldAttrs, ToolAttrs};
use crate::ctxt::Ctxt;
use crate::docs;

/// One annotated struct.
pub(crate) struct Tool<'a> {
    pub(crate) input: &'a DeriveInput,
    pub(crate) attrs: ToolAttrs,
    /// The struct's doc comment lines, `None` if it has none.
    pub(crate) doc_lines: Option<Vec<String>>,
    pub(crate) shape: Shape<'a>,
}

/// What kind of item the attribute sits on; only `Named` and `Unit` are tools.
pub(crate) enum Shape<'a> {
    /// `struct T { .. }` (possibly empty): one parameter per field.
    Named(Vec<Field<'a>>),
    /// `struct T;`: a tool without parameters.
    Unit,
    /// `struct T(..);`
    Tuple(&'a syn::FieldsUnnamed),
    /// `enum T { .. }`
    Enum(&'a syn::token::Enum),
    /// `union T { .. }`
    Union(&'a syn::token::Union),
}

/// One field: one parameter.
pub(crate) struct Field<'a> {
    pub(crate) original: &'a syn::Field,
    pub(crate) ident: &'a Ident,
    /// The name agents send (after `rename` / `rename_all`).
    pub(crate) wire: String,
    pub(crate) attrs: FieldAttrs,
    /// The field's doc comment lines, `None` if it has none.
    pub(crate) doc_lines: Option<Vec<String>>,
}

impl<'a> Tool<'a> {
    pub(crate) fn from_input(cx: &Ctxt, input: &'a DeriveInput, attrs: ToolAttrs) -> Self {
        let rename_all = attrs.rename_all.as_ref().map(|r| r.value);
        let shape = match &input.data {
            Data::Struct(data) => match &data.fields {
                Fields::Named(named) => Shape::Named(
                    named
                        .named
                        .iter()
                        .filter_map(|field| {
                            let ident = field.ident.as_ref()?;
                            let attrs = attr::parse_field_attrs(cx, field);
                            let rust_name = ident_name(ident);
                            let wire = match &attrs.rename {
                                Some(rename) => rename.value.clone(),
                                None => match rename_all {
                                    Some(rule) => rule.apply(&rust_name),
                                    None => rust_name,
                                },
                            };
                            Some(Field {
                                original: field,
                                ident,
                                wire,
                                attrs,
                                doc_lines: docs::doc_lines(&field.attrs),
                            })
                        })
                        .collect(),
                ),
                Fields::Unit => Shape::Unit,
                Fields::Unnamed(unnamed) => Shape::Tuple(unnamed),
            },
            Data::Enum(data) => Shape::Enum(&data.enum_token),
            Data::Union(data) => Shape::Union(&data.union_token),
        };
        Self {
            input,
            doc_lines: docs::doc_lines(&input.attrs),
            attrs,
            shape,
        }
    }

    /// The parameters (none for a unit struct or a rejected shape).
    pub(crate) fn fields(&self) -> &[Field<'a>] {
        match &self.shape {
            Shape::Named(fields) => fields,
            _ => &[],
        }
    }
}

/// A field or variant name as written, without `r#`.
pub(crate) fn ident_name(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
}

/// The last path segment's name and its generic type arguments (`Option<i64>` -> ("Option", [i64])).
fn last_segment(ty: &Type) -> Option<(String, Vec<&Type>)> {
    let Type::Path(path) = ty else {
        return None;
    };
    let segment = path.path.segments.last()?;
    let args = match &segment.arguments {
        PathArguments::AngleBracketed(args) => args
            .args
            .iter()
            .filter_map(|arg| match arg {
                GenericArgument::Type(ty) => Some(ty),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    Some((segment.ident.to_string(), args))
}

fn is_named(ty: &Type, name: &str) -> bool {
    last_segment(ty).is_some_and(|(ident, args)| ident == name && args.is_empty())
}

/// `Option<T>`'s `T`.
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    match last_segment(ty) {
        Some((ident, args)) if ident == "Option" && args.len() == 1 => args.first().copied(),
        _ => None,
    }
}

/// `Option<T>` or `Keep<T>`: parameters a tool must work without (`cross_wiki`).
pub(crate) fn is_optional(ty: &Type) -> bool {
    last_segment(ty)
        .is_some_and(|(ident, args)| (ident == "Option" || ident == "Keep") && args.len() == 1)
}

/// `i64` or `Option<i64>`: the types `default` and `range` apply to.
pub(crate) fn is_integer(ty: &Type) -> bool {
    is_named(ty, "i64") || option_inner(ty).is_some_and(|inner| is_named(inner, "i64"))
}

/// `String`, `Option<String>`, `Keep<String>`: the types `raw` applies to.
pub(crate) fn is_string(ty: &Type) -> bool {
    if is_named(ty, "String") {
        return true;
    }
    match last_segment(ty) {
        Some((ident, args)) if ident == "Option" || ident == "Keep" => {
            matches!(args.as_slice(), [inner] if is_named(inner, "String"))
        }
        _ => false,
    }
}

/// `BTreeMap<..>`: the type `required` applies to.
pub(crate) fn is_map(ty: &Type) -> bool {
    last_segment(ty).is_some_and(|(ident, _)| ident == "BTreeMap")
}

/// The type as the author would write it, for messages (`Option<String>`, not `Option < String >`).
pub(crate) fn type_name(ty: &Type) -> String {
    let text = quote::ToTokens::to_token_stream(ty).to_string();
    text.replace(" < ", "<")
        .replace("< ", "<")
        .replace(" <", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace("& ", "&")
}
