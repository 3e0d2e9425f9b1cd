//! The parameter layer: each supported field type carries its own schema and parser through
//! [`Param`], so the advertised schema and the parsing of one declaration cannot drift.
//!
//! CONTRACT (shared by `mcp-macros` and this crate): the macro never knows which types exist.
//! For every field it emits a [`ParamDecl`] whose `schema`/`required` fn pointers come from
//! `<FieldType as Param>`, and a parse call `<FieldType as Param>::parse(args.get(wire), &SPEC)`.
//! An unsupported field type therefore fails on `Param`'s `#[diagnostic::on_unimplemented]`,
//! spanned on the field's type.

mod array;
mod boolean;
mod derived;
mod error;
mod float;
pub(crate) mod group;
mod integer;
mod keep;
pub(crate) mod keys;
mod map;
mod number;
mod object;
pub mod string;

pub use derived::{DerivedParam, ParamEnum, enum_parse, enum_schema};
pub use error::ParamError;
pub use keep::Keep;
pub use number::{Number, NumberKind};
pub use object::{ParamObject, object_parse, object_schema};

use serde_json::{Map, Value};

/// A JSON object: tool arguments, or one property's schema.
pub type JsonObject = Map<String, Value>;

/// What `#[mcp_tool]` knows about one field, handed to that field type's [`Param`] impl.
///
/// Built as a `const` by the macro, so every field is plain data (no allocation per call).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParamSpec {
    /// The wire name (after `rename` / `rename_all`).
    pub name: &'static str,
    /// The field's doc comment, the parameter's description.
    pub description: &'static str,
    /// `#[param(default = N)]`, numbers only, within `range` and the type (checked when the
    /// tool is compiled).
    pub default: Option<Number>,
    /// `#[param(range = a..=b)]` as `(a, Some(b))`, or `#[param(range = a..)]` (a minimum alone:
    /// no maximum but the type's) as `(a, None)`; numbers only, `a <= b`, within the type
    /// (checked when the tool is compiled).
    pub range: Option<(Number, Option<Number>)>,
    /// `#[param(clamp)]`: lower a value above `range`'s maximum to it instead of refusing (one
    /// below the minimum is still refused).
    pub clamp: bool,
    /// `#[param(raw)]`: a string kept exactly as sent (not trimmed, blank allowed).
    pub raw: bool,
    /// `#[param(required)]`: for types that are optional by default (string maps).
    pub required: bool,
    /// `#[param(extended)]`: advertised only in the extended schema variant
    /// ([`SchemaVariant::Extended`](crate::schema::SchemaVariant)); always parsed.
    pub extended: bool,
}

impl ParamSpec {
    /// A spec with only a name and description; the macro sets the rest with struct update.
    pub const fn new(name: &'static str, description: &'static str) -> Self {
        Self {
            name,
            description,
            default: None,
            range: None,
            clamp: false,
            raw: false,
            required: false,
            extended: false,
        }
    }
}

/// One declared parameter of a tool: its spec plus its type's schema and parser entry points.
#[derive(Debug, Clone, Copy)]
pub struct ParamDecl {
    /// The field's spec.
    pub spec: ParamSpec,
    /// `<T as Param>::schema`.
    pub schema: fn(&ParamSpec) -> JsonObject,
    /// `<T as Param>::is_required`.
    pub required: fn(&ParamSpec) -> bool,
}

/// A type usable as a tool parameter: it says what it advertises and how it parses, together.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a supported #[mcp_tool] parameter type",
    label = "not a parameter type; for a type of yours: `#[derive(ParamEnum)]` on a unit enum, \
             `#[derive(ParamObject)]` on a struct",
    note = "supported: String, Option<String>, Keep<String>, i64, u32, u64, usize, f64 (for \
            fractions; not f32), bool, each in an Option, Vec<String>, BTreeMap<String, String>, \
            a unit enum with #[derive(ParamEnum)], and T / Vec<T> / Option<T> where T has \
            #[derive(ParamObject)]; a group of parameters shared by tools is a ParamObject \
            field marked #[param(flatten)]"
)]
pub trait Param: Sized {
    /// This parameter's JSON Schema (2020-12, flat), including `description` from the spec.
    fn schema(spec: &ParamSpec) -> JsonObject;

    /// Whether the parameter is listed in the schema's `required` array.
    fn is_required(spec: &ParamSpec) -> bool;

    /// Parse the argument (`None` when absent). Errors are agent-facing and name `spec.name`.
    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError>;
}

/// The argument, or `None` when it is absent or JSON `null`: clients that send `null` for an
/// argument they leave unset mean "absent", so every kind treats the two alike.
pub(crate) fn present(value: Option<&Value>) -> Option<&Value> {
    value.filter(|value| !value.is_null())
}

/// `{"type": <json_type>, "description": <spec.description>}`, the start of every kind's schema.
pub(crate) fn typed_schema(json_type: &str, spec: &ParamSpec) -> JsonObject {
    let mut schema = JsonObject::new();
    schema.insert("type".to_owned(), json_type.into());
    schema.insert("description".to_owned(), spec.description.into());
    schema
}
