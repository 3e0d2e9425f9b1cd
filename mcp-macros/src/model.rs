//! The typed model of one `#[mcp_tool]` struct. It borrows the author's syntax tree, so every
//! later error still spans the author's own tokens.
//!
//! There is no type table here: each field's type brings its schema and parser through the
//! runtime's `Param` trait, and which `#[param]` keys apply to it through the runtime's key
//! traits. The macro never looks at a type's name, except to quote it in a message.

use syn::{Data, DeriveInput, Fields, FieldsNamed, Ident, Type};

use crate::attr::{self, FieldAttrs, ToolAttrs};
use crate::case::RenameRule;
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

/// One field: one parameter (or, flattened, a group of them).
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
                Fields::Named(named) => Shape::Named(named_fields(cx, named, rename_all)),
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

/// The fields of a tool or a `ParamObject`, each a parameter, with its `#[param]` keys parsed
/// and its wire name (after `rename` / `rename_all`).
pub(crate) fn named_fields<'a>(
    cx: &Ctxt,
    named: &'a FieldsNamed,
    rename_all: Option<RenameRule>,
) -> Vec<Field<'a>> {
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
        .collect()
}

impl Field<'_> {
    /// Whether this field is a `#[param(flatten)]` group rather than one parameter.
    pub(crate) fn is_group(&self) -> bool {
        self.attrs.flatten.is_some()
    }
}

/// A field or variant name as written, without `r#`.
pub(crate) fn ident_name(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
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
