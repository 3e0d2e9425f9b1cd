//! Every rule the compiler enforces on a tool declaration, each reported on the offending tokens
//! with what to change. All errors are gathered (see `ctxt.rs`), so one build shows them all.

use proc_macro2::Span;

use crate::attr::{CategoryValue, RangeLit};
use crate::ctxt::Ctxt;
use crate::model::{Field, Shape, Tool};

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
    check_fields(cx, tool.fields(), Role::Tool);
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
             the tool by and the key a server enables it with",
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
                    "`name` ({name_text:?}) differs from `id` ({id_text:?}): servers enable \
                     tools by id and clients call them by name, so a tool whose name differs \
                     from its id could never be called; remove `name` (it defaults to the id) \
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

/// Whose fields these are, for the wording of their messages.
#[derive(Clone, Copy)]
pub(crate) enum Role {
    /// A tool's field: a parameter.
    Tool,
    /// A `ParamObject`'s field: a property (or, flattened, a parameter of the tools using it).
    Object,
}

/// The rules of every field of a tool or a `ParamObject`, then their wire names' uniqueness.
/// Which keys apply to which types is not decided here: the runtime's key traits decide it when
/// the expansion is compiled (`params.rs`).
pub(crate) fn check_fields(cx: &Ctxt, fields: &[Field<'_>], role: Role) {
    for field in fields {
        check_field(cx, field, role);
    }
    check_unique_wire_names(cx, fields, role);
}

fn check_field(cx: &Ctxt, field: &Field<'_>, role: Role) {
    let attrs = &field.attrs;
    if let Some(flatten) = &attrs.flatten {
        for (key, tokens) in attrs.given() {
            if key != "flatten" {
                cx.error_spanned_by(
                    tokens,
                    format!(
                        "`{key}` does not go with `flatten`: the flattened group's own fields \
                         carry their keys (put `#[param({key} ...)]` on them), and this field is \
                         not a parameter itself"
                    ),
                );
            }
        }
        let _ = flatten;
        return;
    }
    if field.doc_lines.is_none() {
        let (what, whose) = match role {
            Role::Tool => ("parameter", "the parameter's description agents read"),
            Role::Object => (
                "property",
                "the description agents read (of the property, or of the parameter when the \
                 object is flattened)",
            ),
        };
        cx.error_spanned_by(
            field.ident,
            format!(
                "missing doc comment on {what} `{}`: write `/// ...` above the field; it is \
                 {whose}",
                field.ident
            ),
        );
    }
    if let Some(rename) = &attrs.rename
        && rename.value.trim().is_empty()
    {
        cx.error_spanned_by(&rename.tokens, "`rename` needs a non-empty wire name");
    }
    if let Some(range) = &attrs.range {
        let RangeLit { min, max } = range.value;
        if let Some(max) = max
            && !min.at_most(max)
        {
            cx.error_spanned_by(
                &range.tokens,
                format!(
                    "`range` is empty: its minimum {min} is greater than its maximum {max}; write \
                     `range = {max}..={min}`"
                ),
            );
        } else if let Some(default) = &attrs.default
            && !range.value.contains(default.value)
        {
            cx.error_spanned_by(
                &default.tokens,
                format!(
                    "`default` {} is outside `range = {}`; pick a default the range accepts",
                    default.value, range.value
                ),
            );
        }
    }
    if let Some(clamp) = &attrs.clamp
        && attrs.range.is_none()
    {
        cx.error_spanned_by(
            &clamp.tokens,
            "`clamp` needs a `range` to clamp into: add e.g. `range = 1..=100`",
        );
    }
}

fn check_unique_wire_names(cx: &Ctxt, fields: &[Field<'_>], role: Role) {
    for (index, field) in fields.iter().enumerate() {
        if field.is_group() {
            continue;
        }
        if let Some(first) = fields[..index]
            .iter()
            .find(|f| !f.is_group() && f.wire == field.wire)
        {
            let at = field
                .attrs
                .rename
                .as_ref()
                .map(|r| r.tokens.clone())
                .unwrap_or_else(|| quote::ToTokens::to_token_stream(field.ident));
            let what = match role {
                Role::Tool => "parameters",
                Role::Object => "fields",
            };
            cx.error_spanned_by(
                at,
                format!(
                    "{what} `{}` and `{}` both have the wire name `{}`; rename one with \
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
