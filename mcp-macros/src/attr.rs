//! The keys of `#[mcp_tool(...)]` and `#[param(...)]`, declared once: the parsers below and the
//! "expected one of" messages both read these lists.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::meta::ParseNestedMeta;
use syn::{Expr, ExprLit, ExprUnary, Lit, LitStr, RangeLimits, Token, UnOp};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// The keys `#[mcp_tool(...)]` accepts.
pub(crate) const TOOL_KEYS: &[&str] = &[
    "id",
    "name",
    "write",
    "category",
    "summary",
    "man",
    "title",
    "rename_all",
    "output",
    "idempotent",
    "additive",
    "open_world",
    "confirm",
    "crate",
];

/// The keys `#[param(...)]` accepts on a field of a tool or of a `ParamObject`.
pub(crate) const FIELD_KEYS: &[&str] = &[
    "rename", "default", "range", "clamp", "required", "raw", "extended", "flatten",
];

/// A parsed value and the tokens it came from (`key = value`), for errors spanning both.
#[derive(Debug, Clone)]
pub(crate) struct Spanned<T> {
    pub(crate) value: T,
    pub(crate) tokens: TokenStream,
}

/// `category = ...`: a string literal, or the path of a `&'static str` constant, so a server can
/// keep its categories in one list its tools (and contributed crates) name.
#[derive(Debug, Clone)]
pub(crate) enum CategoryValue {
    Literal(LitStr),
    Constant(syn::ExprPath),
}

/// `#[mcp_tool(...)]`.
#[derive(Default)]
pub(crate) struct ToolAttrs {
    pub(crate) id: Option<Spanned<LitStr>>,
    pub(crate) name: Option<Spanned<LitStr>>,
    pub(crate) write: bool,
    pub(crate) category: Option<Spanned<CategoryValue>>,
    pub(crate) summary: Option<Spanned<LitStr>>,
    pub(crate) man: Option<Spanned<LitStr>>,
    pub(crate) title: Option<Spanned<LitStr>>,
    pub(crate) rename_all: Option<Spanned<RenameRule>>,
    /// `output = T`: the structured output type.
    pub(crate) output: Option<syn::Type>,
    pub(crate) idempotent: Option<Spanned<()>>,
    pub(crate) additive: Option<Spanned<()>>,
    pub(crate) open_world: Option<Spanned<bool>>,
    /// `confirm` (write tools): always ask the person before the write runs.
    pub(crate) confirm: Option<Spanned<()>>,
    /// `crate = "path"`: where the runtime is re-exported, for frameworks built on it.
    pub(crate) krate: Option<syn::Path>,
}

/// `#[param(...)]` on a derived type (the container): `crate` on both derives, `rename_all` on a
/// `ParamObject`.
#[derive(Default)]
pub(crate) struct ContainerAttrs {
    pub(crate) rename_all: Option<Spanned<RenameRule>>,
    pub(crate) krate: Option<syn::Path>,
}

/// A number literal of `default` or `range`, as written (whether it fits the field's type is
/// checked by the compiler, through the runtime's key traits).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum NumberLit {
    Int(i128),
    Float(f64),
}

impl NumberLit {
    /// For comparisons between literals (`range` order, `default` within `range`).
    #[allow(clippy::cast_precision_loss)]
    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Self::Int(value) => value as f64,
            Self::Float(value) => value,
        }
    }

    /// `a <= b`, exactly for two integers.
    pub(crate) fn at_most(self, other: Self) -> bool {
        match (self, other) {
            (Self::Int(a), Self::Int(b)) => a <= b,
            (a, b) => a.as_f64() <= b.as_f64(),
        }
    }
}

impl std::fmt::Display for NumberLit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Int(value) => value.fmt(f),
            Self::Float(value) => write!(f, "{value:?}"),
        }
    }
}

/// `range = a..=b`, or `range = a..` (a minimum alone), as written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RangeLit {
    pub(crate) min: NumberLit,
    /// `None` for `a..`: no maximum but what the field's type holds.
    pub(crate) max: Option<NumberLit>,
}

impl RangeLit {
    /// Whether `value` lies within the range.
    pub(crate) fn contains(self, value: NumberLit) -> bool {
        self.min.at_most(value) && self.max.is_none_or(|max| value.at_most(max))
    }
}

impl std::fmt::Display for RangeLit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.max {
            Some(max) => write!(f, "{}..={max}", self.min),
            None => write!(f, "{}..", self.min),
        }
    }
}

/// `#[param(...)]` on a field.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    pub(crate) rename: Option<Spanned<String>>,
    pub(crate) default: Option<Spanned<NumberLit>>,
    pub(crate) range: Option<Spanned<RangeLit>>,
    pub(crate) clamp: Option<Spanned<()>>,
    pub(crate) required: Option<Spanned<()>>,
    pub(crate) raw: Option<Spanned<()>>,
    pub(crate) extended: Option<Spanned<()>>,
    /// `flatten`: the field's `ParamObject` type's fields are top-level parameters.
    pub(crate) flatten: Option<Spanned<()>>,
}

impl FieldAttrs {
    /// Every key given, with its tokens, in declaration order of [`FIELD_KEYS`].
    pub(crate) fn given(&self) -> Vec<(&'static str, &TokenStream)> {
        let rename = self.rename.as_ref().map(|s| &s.tokens);
        let default = self.default.as_ref().map(|s| &s.tokens);
        let range = self.range.as_ref().map(|s| &s.tokens);
        let flags = [
            ("clamp", &self.clamp),
            ("required", &self.required),
            ("raw", &self.raw),
            ("extended", &self.extended),
            ("flatten", &self.flatten),
        ];
        [("rename", rename), ("default", default), ("range", range)]
            .into_iter()
            .chain(flags.map(|(key, flag)| (key, flag.as_ref().map(|s| &s.tokens))))
            .filter_map(|(key, tokens)| tokens.map(|tokens| (key, tokens)))
            .collect()
    }
}

/// Parses `#[mcp_tool(...)]`'s arguments, recording every mistake in `cx`.
pub(crate) fn parse_tool_attrs(cx: &Ctxt, args: TokenStream) -> ToolAttrs {
    let mut attrs = ToolAttrs::default();
    let mut seen = Vec::new();
    let parser = syn::meta::parser(|meta| {
        let Some(key) = key_of(cx, &meta, "#[mcp_tool]", TOOL_KEYS, &mut seen) else {
            return skip_value(&meta);
        };
        match key.as_str() {
            "id" => attrs.id = string_value(cx, &meta, &key)?,
            "name" => attrs.name = string_value(cx, &meta, &key)?,
            "category" => attrs.category = category_value(cx, &meta)?,
            "summary" => attrs.summary = string_value(cx, &meta, &key)?,
            "man" => attrs.man = string_value(cx, &meta, &key)?,
            "title" => attrs.title = string_value(cx, &meta, &key)?,
            "write" => attrs.write = flag(cx, &meta, &key)?.is_some(),
            "rename_all" => attrs.rename_all = rename_rule(cx, &meta)?,
            "output" => attrs.output = type_value(cx, &meta)?,
            "idempotent" => attrs.idempotent = flag(cx, &meta, &key)?,
            "additive" => attrs.additive = flag(cx, &meta, &key)?,
            "open_world" => attrs.open_world = bool_value(cx, &meta, &key)?,
            "confirm" => attrs.confirm = flag(cx, &meta, &key)?,
            "crate" => attrs.krate = path_value(cx, &meta)?,
            _ => not_parsed(cx, &meta, &key),
        }
        Ok(())
    });
    if let Err(error) = syn::parse::Parser::parse2(parser, args) {
        cx.syn_error(error);
    }
    attrs
}

/// Parses every `#[param(...)]` on a field of a tool or of a `ParamObject`.
pub(crate) fn parse_field_attrs(cx: &Ctxt, field: &syn::Field) -> FieldAttrs {
    let mut attrs = FieldAttrs::default();
    let mut seen = Vec::new();
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("param")) {
        let result = attr.parse_nested_meta(|meta| {
            let Some(key) = key_of(cx, &meta, "#[param]", FIELD_KEYS, &mut seen) else {
                return skip_value(&meta);
            };
            match key.as_str() {
                "rename" => {
                    attrs.rename = string_value(cx, &meta, &key)?.map(|s| Spanned {
                        value: s.value.value(),
                        tokens: s.tokens,
                    });
                }
                "default" => attrs.default = number_value(cx, &meta)?,
                "range" => attrs.range = range_value(cx, &meta)?,
                "clamp" => attrs.clamp = flag(cx, &meta, &key)?,
                "required" => attrs.required = flag(cx, &meta, &key)?,
                "raw" => attrs.raw = flag(cx, &meta, &key)?,
                "extended" => attrs.extended = flag(cx, &meta, &key)?,
                "flatten" => attrs.flatten = flag(cx, &meta, &key)?,
                _ => not_parsed(cx, &meta, &key),
            }
            Ok(())
        });
        if let Err(error) = result {
            cx.syn_error(error);
        }
    }
    attrs
}

/// Parses `#[param(rename = "...")]`, the only key on enum variants; `what` names the place for
/// the message ("a ParamEnum variant").
pub(crate) fn parse_rename_only(
    cx: &Ctxt,
    attrs: &[syn::Attribute],
    what: &str,
) -> Option<Spanned<String>> {
    let mut rename = None;
    let mut seen = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("param")) {
        let result = attr.parse_nested_meta(|meta| {
            let Some(key) = key_of(cx, &meta, what, &["rename"], &mut seen) else {
                return skip_value(&meta);
            };
            rename = string_value(cx, &meta, &key)?.map(|s| Spanned {
                value: s.value.value(),
                tokens: s.tokens,
            });
            Ok(())
        });
        if let Err(error) = result {
            cx.syn_error(error);
        }
    }
    rename
}

/// Parses the `#[param(...)]` of a derived type, accepting the keys in `accepted` (a subset of
/// `rename_all` and `crate`); `what` names the place for messages.
pub(crate) fn parse_container_attrs(
    cx: &Ctxt,
    attrs: &[syn::Attribute],
    what: &str,
    accepted: &[&str],
) -> ContainerAttrs {
    let mut container = ContainerAttrs::default();
    let mut seen = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("param")) {
        let result = attr.parse_nested_meta(|meta| {
            let Some(key) = key_of(cx, &meta, what, accepted, &mut seen) else {
                return skip_value(&meta);
            };
            match key.as_str() {
                "rename_all" => container.rename_all = rename_rule(cx, &meta)?,
                "crate" => container.krate = path_value(cx, &meta)?,
                _ => not_parsed(cx, &meta, &key),
            }
            Ok(())
        });
        if let Err(error) = result {
            cx.syn_error(error);
        }
    }
    container
}

/// Parses `#[mcp_output(...)]`'s arguments: `crate = "path"` is the only key.
pub(crate) fn parse_output_args(cx: &Ctxt, args: TokenStream) -> Option<syn::Path> {
    let mut krate = None;
    let mut seen = Vec::new();
    let parser = syn::meta::parser(|meta| {
        if key_of(cx, &meta, "#[mcp_output]", &["crate"], &mut seen).is_none() {
            return skip_value(&meta);
        }
        krate = path_value(cx, &meta)?;
        Ok(())
    });
    if let Err(error) = syn::parse::Parser::parse2(parser, args) {
        cx.syn_error(error);
    }
    krate
}

/// The key of one `key` / `key = value` item, or `None` (error recorded) if it is not one of
/// `accepted` or was already given.
fn key_of(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    attribute: &str,
    accepted: &[&str],
    seen: &mut Vec<String>,
) -> Option<String> {
    let Some(ident) = meta.path.get_ident() else {
        cx.error_spanned_by(
            &meta.path,
            format!(
                "expected a key in {attribute}, one of: {}",
                accepted.join(", ")
            ),
        );
        return None;
    };
    let key = ident.to_string();
    if !accepted.contains(&key.as_str()) {
        cx.error_spanned_by(
            ident,
            format!(
                "unknown {attribute} key `{key}`; expected one of: {}",
                accepted.join(", ")
            ),
        );
        return None;
    }
    if seen.contains(&key) {
        cx.error_spanned_by(
            ident,
            format!("duplicate {attribute} key `{key}`; give it once"),
        );
        return None;
    }
    seen.push(key.clone());
    Some(key)
}

/// Consumes whatever follows a rejected key, so parsing goes on to report later mistakes.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// `key = "text"`: anything but a string literal is an error naming the key.
/// `category = "..."` or `category = path::TO_CONSTANT`.
fn category_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
) -> syn::Result<Option<Spanned<CategoryValue>>> {
    let path = meta.path.clone();
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(
            &path,
            "`category` takes a string literal or a constant: write `category = \"...\"` or \
             `category = categories::NAME`",
        );
        return skip_value(meta).map(|()| None);
    }
    let expr: Expr = meta.value()?.parse()?;
    let value = match &expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) => CategoryValue::Literal(text.clone()),
        Expr::Path(constant) if constant.qself.is_none() => {
            CategoryValue::Constant(constant.clone())
        }
        _ => {
            cx.error_spanned_by(
                &expr,
                "`category` takes a string literal or the path of a `&str` constant, e.g. \
                 `category = \"...\"` or `category = categories::NAME` (not a macro or other \
                 expression)",
            );
            return Ok(None);
        }
    };
    Ok(Some(Spanned {
        value,
        tokens: quote!(#path = #expr),
    }))
}

fn string_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
) -> syn::Result<Option<Spanned<LitStr>>> {
    let path = meta.path.clone();
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(
            &path,
            format!("`{key}` takes a string literal: write `{key} = \"...\"`"),
        );
        return skip_value(meta).map(|()| None);
    }
    let expr: Expr = meta.value()?.parse()?;
    match &expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) => Ok(Some(Spanned {
            value: text.clone(),
            tokens: quote!(#path = #expr),
        })),
        _ => {
            cx.error_spanned_by(
                &expr,
                format!(
                    "`{key}` takes a string literal, e.g. `{key} = \"...\"` (not a constant, \
                     macro or other expression)"
                ),
            );
            Ok(None)
        }
    }
}

/// `crate = "path::to::runtime"`: a string holding a path, as serde's `crate` attribute takes.
fn path_value(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<syn::Path>> {
    const HOW: &str = "`crate` takes the path your framework re-exports mcp-runtime at, as a \
                       string: write `crate = \"my_framework::mcp_runtime\"`";
    let Some(text) = string_value(cx, meta, "crate")? else {
        return Ok(None);
    };
    match text.value.parse::<syn::Path>() {
        Ok(path) => Ok(Some(path)),
        Err(_) => {
            cx.error_spanned_by(&text.value, HOW);
            Ok(None)
        }
    }
}

/// `output = SomeType`: a type, not a string naming one.
fn type_value(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<syn::Type>> {
    const HOW: &str = "`output` takes the output type: write `output = MyOutput`, a type that \
                       derives `Serialize` and `JsonSchema` (or carries #[mcp_output])";
    let path = meta.path.clone();
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(&path, HOW);
        return skip_value(meta).map(|()| None);
    }
    let value = meta.value()?;
    if value.peek(LitStr) {
        let text: LitStr = value.parse()?;
        cx.error_spanned_by(
            &text,
            format!(
                "`output` takes a type, not a string: write `output = {}` (a type that derives \
                 `Serialize` and `JsonSchema`, or carries #[mcp_output])",
                text.value()
            ),
        );
        return Ok(None);
    }
    value.parse::<syn::Type>().map(Some)
}

/// `key = true` / `key = false`.
fn bool_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
) -> syn::Result<Option<Spanned<bool>>> {
    let path = meta.path.clone();
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(
            &path,
            format!("`{key}` takes `true` or `false`: write `{key} = false`"),
        );
        return skip_value(meta).map(|()| None);
    }
    let expr: Expr = meta.value()?.parse()?;
    match &expr {
        Expr::Lit(ExprLit {
            lit: Lit::Bool(value),
            ..
        }) => Ok(Some(Spanned {
            value: value.value,
            tokens: quote!(#path = #expr),
        })),
        _ => {
            cx.error_spanned_by(
                &expr,
                format!("`{key}` takes `true` or `false`, e.g. `{key} = false`"),
            );
            Ok(None)
        }
    }
}

/// A bare `key` flag; `key = ...` is an error saying to drop the value.
fn flag(cx: &Ctxt, meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<Option<Spanned<()>>> {
    let path = meta.path.clone();
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        let tokens = path.to_token_stream();
        skip_value(meta)?;
        cx.error_spanned_by(
            tokens,
            format!("`{key}` is a flag: write `{key}` alone, without a value"),
        );
        return Ok(None);
    }
    Ok(Some(Spanned {
        value: (),
        tokens: path.to_token_stream(),
    }))
}

/// `rename_all = "camelCase"` and the other serde spellings.
fn rename_rule(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<Spanned<RenameRule>>> {
    let Some(text) = string_value(cx, meta, "rename_all")? else {
        return Ok(None);
    };
    match RenameRule::from_name(&text.value.value()) {
        Some(rule) => Ok(Some(Spanned {
            value: rule,
            tokens: text.tokens,
        })),
        None => {
            cx.error_spanned_by(
                &text.value,
                format!(
                    "unknown `rename_all` rule {:?}; expected one of: {}",
                    text.value.value(),
                    RenameRule::spellings()
                ),
            );
            Ok(None)
        }
    }
}

/// `default = 20` (or a negative or float literal).
fn number_value(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<Spanned<NumberLit>>> {
    let path = meta.path.clone();
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(
            &path,
            "`default` takes a number: write `default = 20` (or `default = 0.5` on an `f64`)",
        );
        return skip_value(meta).map(|()| None);
    }
    let expr: Expr = meta.value()?.parse()?;
    match number_literal(&expr, "default") {
        Ok(value) => Ok(Some(Spanned {
            value,
            tokens: quote!(#path = #expr),
        })),
        Err(error) => {
            cx.syn_error(error);
            Ok(None)
        }
    }
}

/// `range = 1..=100`: an inclusive range of number literals; `range = 1..`: a minimum alone.
fn range_value(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<Spanned<RangeLit>>> {
    let path = meta.path.clone();
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(
            &path,
            "`range` takes an inclusive range: write `range = 1..=100`, or `range = 1..` for a \
             minimum alone",
        );
        return skip_value(meta).map(|()| None);
    }
    let expr: Expr = meta.value()?.parse()?;
    let Expr::Range(range) = &expr else {
        cx.error_spanned_by(
            &expr,
            "`range` takes an inclusive range, e.g. `range = 1..=100`, or `range = 1..` for a \
             minimum alone",
        );
        return Ok(None);
    };
    let Some(start) = &range.start else {
        cx.error_spanned_by(
            &expr,
            "`range` needs a minimum, e.g. `range = 1..=100` (write the type's own least value \
             for an open lower side, e.g. `range = -9223372036854775808..=100`)",
        );
        return Ok(None);
    };
    let end = match (&range.limits, &range.end) {
        (RangeLimits::Closed(_), end) => end.as_deref(),
        (RangeLimits::HalfOpen(_), None) => None,
        (RangeLimits::HalfOpen(dots), Some(_)) => {
            cx.error_spanned_by(
                dots,
                "`range` bounds are both inclusive: write `..=`, e.g. `range = 1..=100`",
            );
            return Ok(None);
        }
    };
    let min = number_literal(start, "range");
    let max = end.map(|end| number_literal(end, "range")).transpose();
    match (min, max) {
        (Ok(min), Ok(max)) => Ok(Some(Spanned {
            value: RangeLit { min, max },
            tokens: quote!(#path = #expr),
        })),
        (min, max) => {
            for error in [min.err(), max.err()].into_iter().flatten() {
                cx.syn_error(error);
            }
            Ok(None)
        }
    }
}

/// A number literal, optionally negated: an integer (any size a `u64` or `i64` can hold, checked
/// against the field's type by the compiler) or a finite float.
fn number_literal(expr: &Expr, key: &str) -> syn::Result<NumberLit> {
    let expected = || {
        syn::Error::new_spanned(
            expr,
            format!(
                "`{key}` takes number literals such as `20`, `-1` or `0.5` (not a constant or \
                 other expression)"
            ),
        )
    };
    let too_big =
        || syn::Error::new_spanned(expr, "this number is too large for any parameter type");
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) => int
            .base10_parse::<i128>()
            .map(NumberLit::Int)
            .map_err(|_| too_big()),
        Expr::Lit(ExprLit {
            lit: Lit::Float(float),
            ..
        }) => match float.base10_parse::<f64>() {
            Ok(value) if value.is_finite() => Ok(NumberLit::Float(value)),
            _ => Err(too_big()),
        },
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) => match number_literal(inner, key)? {
            NumberLit::Int(value) => Ok(NumberLit::Int(-value)),
            NumberLit::Float(value) => Ok(NumberLit::Float(-value)),
        }
        .and_then(|value| match &**inner {
            Expr::Lit(_) => Ok(value),
            _ => Err(expected()),
        }),
        Expr::Group(group) => number_literal(&group.expr, key),
        _ => Err(expected()),
    }
}

/// The key lists and the `match`es above are written together; a key in one and not the other
/// is a bug in this crate, reported as such rather than ignored.
fn not_parsed(cx: &Ctxt, meta: &ParseNestedMeta<'_>, key: &str) {
    cx.error_spanned_by(
        &meta.path,
        format!("mcp-macros bug: key `{key}` is accepted but not parsed; please report it"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(source: &str) -> syn::Result<NumberLit> {
        number_literal(&syn::parse_str(source)?, "default")
    }

    #[test]
    fn number_literals_accept_negatives_floats_and_the_64_bit_extremes() {
        assert_eq!(number("20").ok(), Some(NumberLit::Int(20)));
        assert_eq!(number("-1").ok(), Some(NumberLit::Int(-1)));
        assert_eq!(
            number("-9223372036854775808").ok(),
            Some(NumberLit::Int(i64::MIN.into()))
        );
        assert_eq!(
            number("18446744073709551615").ok(),
            Some(NumberLit::Int(u64::MAX.into()))
        );
        assert_eq!(number("-0.5").ok(), Some(NumberLit::Float(-0.5)));
        assert_eq!(number("1e3").ok(), Some(NumberLit::Float(1000.0)));
    }

    #[test]
    fn non_numbers_and_overflow_are_refused() {
        for source in [
            "\"20\"",
            "LIMIT",
            "-x",
            "--1",
            "1e999",
            "340282366920938463463374607431768211456",
        ] {
            assert!(number(source).is_err(), "{source}");
        }
    }

    #[test]
    fn every_mistake_in_one_attribute_is_reported() {
        let cx = Ctxt::new();
        let attrs = parse_tool_attrs(&cx, quote!(id = "a", colour = 1, id = "b", write = true));
        let messages: Vec<String> = match cx.check() {
            Ok(()) => Vec::new(),
            Err(errors) => errors.into_iter().map(|e| e.to_string()).collect(),
        };
        assert_eq!(
            messages,
            [
                "unknown #[mcp_tool] key `colour`; expected one of: id, name, write, category, \
                 summary, man, title, rename_all, output, idempotent, additive, open_world, \
                 confirm, crate",
                "duplicate #[mcp_tool] key `id`; give it once",
                "`write` is a flag: write `write` alone, without a value",
            ]
        );
        assert_eq!(attrs.id.map(|id| id.value.value()), Some("a".to_owned()));
        assert!(!attrs.write);
    }

    #[test]
    fn a_valid_attribute_sets_every_key() {
        let cx = Ctxt::new();
        let attrs = parse_tool_attrs(
            &cx,
            quote!(
                id = "t",
                write,
                category = "C",
                summary = "S",
                rename_all = "camelCase"
            ),
        );
        assert!(cx.check().is_ok());
        assert!(attrs.write);
        assert!(matches!(
            attrs.category.map(|c| c.value),
            Some(CategoryValue::Literal(text)) if text.value() == "C"
        ));
        assert_eq!(attrs.summary.map(|s| s.value.value()), Some("S".to_owned()));
        assert_eq!(attrs.rename_all.map(|r| r.value), Some(RenameRule::Camel));
    }
}
