//! Every rule the compiler enforces on a tool declaration, each reported on the offending tokens
//! with what to change. All errors are gathered (see `ctxt.rs`), so one build shows them all.

use proc_macro2::Span;

use crate::attr::CategoryValue;
use crate::ctxt::Ctxt;
use crate::model::{self, Field, Shape, Tool};

/// The id grammar, `^[a-zA-Z0-9_-]{1,64}$`: the portable subset every major client accepts.
pub(crate) const MAX_ID_LEN: usize = 64;

/// Why the id grammar is strict, appended to every id error.
const ID_GRAMMAR: &str = "tool ids must match ^[a-zA-Z0-9_-]{1,64}$, the portable subset that \
                          Claude Desktop, OpenAI and Copilot all accept (a client that rejects one \
                          tool name may refuse the whole tool list)";

pub(crate) fn check(cx: &Ctxt, tool: &Tool<'_>) {
    check_shape(cx, tool);
    check_id(cx, tool);
    check_attr_texts(cx, tool);
    check_write_hints(cx, tool);
    if tool.doc_lines.is_none() {
        cx.error_spanned_by(
            &tool.input.ident,
            format!(
                "missing doc comment on tool `{}`: write `/// ...` above the struct; it is the \
                 description agents read, and its first sentence is the catalog summary",
                tool.input.ident
            ),
        );
    }
    for field in tool.fields() {
        check_field(cx, field);
    }
    check_unique_wire_names(cx, tool.fields());
}

fn check_shape(cx: &Ctxt, tool: &Tool<'_>) {
    const SHAPE: &str = "#[mcp_tool] goes on a struct with named fields (one per parameter), or \
                         on a unit struct `struct Name;` for a tool without parameters";
    match &tool.shape {
        Shape::Named(_) | Shape::Unit => {}
        Shape::Tuple(fields) => cx.error_spanned_by(
            fields,
            format!(
                "a tuple struct cannot be a tool: its fields have no names to advertise; {SHAPE}"
            ),
        ),
        Shape::Enum(token) => cx.error_spanned_by(
            token,
            format!(
                "an enum cannot be a tool; {SHAPE}. For a parameter with a fixed set of values, \
                 give a field a unit enum type with #[derive(ParamEnum)]"
            ),
        ),
        Shape::Union(token) => {
            cx.error_spanned_by(token, format!("a union cannot be a tool; {SHAPE}"))
        }
    }
    let generics = &tool.input.generics;
    if !generics.params.is_empty() || generics.where_clause.is_some() {
        cx.error_spanned_by(
            generics,
            "a tool struct cannot be generic: its schema is fixed when it is compiled; use \
             concrete field types",
        );
    }
}

/// `idempotent` and `additive` describe how a write changes content, and `confirm` asks before
/// it does; on a read tool (which changes nothing, so is idempotent and not destructive by
/// nature) they mean nothing.
fn check_write_hints(cx: &Ctxt, tool: &Tool<'_>) {
    if tool.attrs.write {
        return;
    }
    if let Some(given) = &tool.attrs.confirm {
        cx.error_spanned_by(
            &given.tokens,
            "`confirm` asks a person before this tool writes: add `write` if this tool changes \
             content, or remove `confirm` (a read tool changes nothing, so there is nothing to \
             confirm)",
        );
    }
    for (key, given) in [
        ("idempotent", &tool.attrs.idempotent),
        ("additive", &tool.attrs.additive),
    ] {
        if let Some(given) = given {
            cx.error_spanned_by(
                &given.tokens,
                format!(
                    "`{key}` describes a write tool's changes: add `write` if this tool \
                     changes content, or remove `{key}` (a read tool changes nothing, so it is \
                     idempotent and not destructive by nature)"
                ),
            );
        }
    }
}

fn check_id(cx: &Ctxt, tool: &Tool<'_>) {
    let Some(id) = &tool.attrs.id else {
        cx.error_at(
            Span::call_site(),
            "missing `id`: write #[mcp_tool(id = \"my_tool\")]; the id is the name agents call \
             the tool by and the key wikis enable it with",
        );
        return;
    };
    let id_text = id.value.value();
    if let Err(problem) = id_problem(&id_text) {
        cx.error_spanned_by(&id.value, format!("{problem}; {ID_GRAMMAR}"));
    }
    if let Some(name) = &tool.attrs.name {
        let name_text = name.value.value();
        if name_text != id_text {
            cx.error_spanned_by(
                &name.tokens,
                format!(
                    "`name` ({name_text:?}) differs from `id` ({id_text:?}): wikis enable tools \
                     by id and clients call them by name, so a tool whose name differs from its \
                     id would be dropped from every wiki; remove `name` (it defaults to the id) \
                     or make it equal the id"
                ),
            );
        }
    }
}

/// What is wrong with an id, if anything.
pub(crate) fn id_problem(id: &str) -> Result<(), String> {
    if id.is_empty() {
        return Err("the tool id is empty".to_owned());
    }
    let length = id.chars().count();
    if length > MAX_ID_LEN {
        return Err(format!(
            "the tool id is {length} characters long, more than {MAX_ID_LEN}"
        ));
    }
    if let Some((position, bad)) = id
        .chars()
        .enumerate()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(format!(
            "the tool id {id:?} contains {}, at character {}; use `_` or `-` instead",
            describe_char(bad),
            position + 1
        ));
    }
    Ok(())
}

fn describe_char(c: char) -> String {
    match c {
        ' ' => "a space".to_owned(),
        '.' => "a dot `.`".to_owned(),
        '/' => "a slash `/`".to_owned(),
        c if c.is_control() || c.is_whitespace() => format!("the character U+{:04X}", c as u32),
        c if !c.is_ascii() => format!("the non-ASCII character `{c}` (U+{:04X})", c as u32),
        c => format!("the character `{c}`"),
    }
}

/// `category`, `summary`, `title`, `man`: present means non-blank.
fn check_attr_texts(cx: &Ctxt, tool: &Tool<'_>) {
    let attrs = &tool.attrs;
    // A constant's text is checked where it is known: a const assertion in the expansion.
    if let Some(category) = &attrs.category
        && let CategoryValue::Literal(text) = &category.value
        && text.value().trim().is_empty()
    {
        cx.error_spanned_by(
            &category.tokens,
            "`category` is blank: give it text, or remove it to use the default",
        );
    }
    for (key, value) in [
        ("summary", &attrs.summary),
        ("title", &attrs.title),
        ("man", &attrs.man),
    ] {
        if let Some(value) = value
            && value.value.value().trim().is_empty()
        {
            cx.error_spanned_by(
                &value.tokens,
                format!("`{key}` is blank: give it text, or remove it to use the default"),
            );
        }
    }
}

fn check_field(cx: &Ctxt, field: &Field<'_>) {
    let ty = &field.original.ty;
    let attrs = &field.attrs;
    let type_name = model::type_name(ty);
    if field.doc_lines.is_none() {
        cx.error_spanned_by(
            field.ident,
            format!(
                "missing doc comment on parameter `{}`: write `/// ...` above the field; it is \
                 the parameter's description agents read",
                field.ident
            ),
        );
    }
    if let Some(rename) = &attrs.rename
        && rename.value.trim().is_empty()
    {
        cx.error_spanned_by(&rename.tokens, "`rename` needs a non-empty wire name");
    }
    let integer = model::is_integer(ty);
    for (key, tokens) in [
        ("default", attrs.default.as_ref().map(|d| &d.tokens)),
        ("range", attrs.range.as_ref().map(|r| &r.tokens)),
        ("clamp", attrs.clamp.as_ref().map(|c| &c.tokens)),
    ] {
        if let Some(tokens) = tokens
            && !integer
        {
            cx.error_spanned_by(
                tokens,
                format!(
                    "`{key}` applies to integer parameters (`i64`, `Option<i64>`), not \
                     `{type_name}`"
                ),
            );
        }
    }
    if let Some(range) = &attrs.range {
        let (min, max) = range.value;
        if min > max {
            cx.error_spanned_by(
                &range.tokens,
                format!(
                    "`range` is empty: its minimum {min} is greater than its maximum {max}; write \
                     `range = {max}..={min}`"
                ),
            );
        } else if let Some(default) = &attrs.default
            && !(min..=max).contains(&default.value)
        {
            cx.error_spanned_by(
                &default.tokens,
                format!(
                    "`default` {} is outside `range = {min}..={max}`; pick a default the range \
                     accepts",
                    default.value
                ),
            );
        }
    }
    if let Some(clamp) = &attrs.clamp
        && integer
        && attrs.range.is_none()
    {
        cx.error_spanned_by(
            &clamp.tokens,
            "`clamp` needs a `range` to clamp into: add e.g. `range = 1..=100`",
        );
    }
    if let Some(raw) = &attrs.raw
        && !model::is_string(ty)
    {
        cx.error_spanned_by(
            &raw.tokens,
            format!(
                "`raw` applies to string parameters (`String`, `Option<String>`, `Keep<String>`): \
                 text kept exactly as sent, such as page content; not `{type_name}`"
            ),
        );
    }
    if let Some(required) = &attrs.required
        && !model::is_map(ty)
    {
        cx.error_spanned_by(
            &required.tokens,
            format!(
                "`required` applies to `BTreeMap<String, String>` parameters, which are optional \
                 unless marked; `{type_name}` says it in its type (`T` is required, `Option<T>` \
                 optional)"
            ),
        );
    }
    if let Some(cross_wiki) = &attrs.cross_wiki
        && !model::is_optional(ty)
    {
        cx.error_spanned_by(
            &cross_wiki.tokens,
            format!(
                "`cross_wiki` applies to an optional parameter (`Option<...>`, `Keep<...>`), not \
                 `{type_name}`: endpoints without cross-wiki reach do not advertise it, so the \
                 tool must work when it is absent"
            ),
        );
    }
}

fn check_unique_wire_names(cx: &Ctxt, fields: &[Field<'_>]) {
    for (index, field) in fields.iter().enumerate() {
        if let Some(first) = fields[..index].iter().find(|f| f.wire == field.wire) {
            let at = field
                .attrs
                .rename
                .as_ref()
                .map(|r| r.tokens.clone())
                .unwrap_or_else(|| quote::ToTokens::to_token_stream(field.ident));
            cx.error_spanned_by(
                at,
                format!(
                    "parameters `{}` and `{}` both have the wire name `{}`; rename one with \
                     #[param(rename = \"...\")]",
                    first.ident, field.ident, field.wire
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_ids_pass() {
        for id in ["get_history", "a", "list-wikis", "Tool2", &"x".repeat(64)] {
            assert_eq!(id_problem(id), Ok(()), "{id}");
        }
    }

    #[test]
    fn empty_and_long_ids_are_refused() {
        assert_eq!(id_problem(""), Err("the tool id is empty".to_owned()));
        assert_eq!(
            id_problem(&"x".repeat(65)),
            Err("the tool id is 65 characters long, more than 64".to_owned())
        );
    }

    #[test]
    fn the_bad_character_and_its_position_are_named() {
        assert_eq!(
            id_problem("get.history"),
            Err(
                "the tool id \"get.history\" contains a dot `.`, at character 4; use `_` or `-` \
                 instead"
                    .to_owned()
            )
        );
        assert_eq!(
            id_problem("get history"),
            Err(
                "the tool id \"get history\" contains a space, at character 4; use `_` or `-` \
                 instead"
                    .to_owned()
            )
        );
        let accented = id_problem("café").err().unwrap_or_default();
        assert!(
            accented.contains("non-ASCII character `é` (U+00E9)"),
            "{accented}"
        );
    }
}
