//! The traits behind the two parameter derives, `#[derive(ParamEnum)]` and
//! `#[derive(ParamObject)]`, and the glue that makes `Option<T>` a parameter for both.
//!
//! CONTRACT (mcp-macros emits, this crate implements):
//! - `#[derive(ParamEnum)]` emits `impl ParamEnum`, `impl Param` (delegating to [`enum_schema`] and
//!   [`enum_parse`]) and `impl DerivedParam`. The derive must emit `Param` itself: a second blanket
//!   `impl<T: ParamEnum> Param for T` would overlap the object one below.
//! - `#[derive(ParamObject)]` emits serde `Deserialize` + schemars `JsonSchema` (through this crate's
//!   re-exported crates, so the author depends on neither) and `impl ParamObject`. `Param` for `T`
//!   and `Vec<T>` comes from blanket impls bounded on [`ParamObject`] (param's object module), and
//!   [`DerivedParam`] from the blanket impl here.
//! - `Option<T>` for either kind comes from the one blanket impl here, bounded on [`DerivedParam`]
//!   (two blankets on `Option<T>`, one per derive, would overlap).

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{JsonObject, Param, ParamError, ParamSpec, present, typed_schema};

/// A unit enum whose variants are the accepted string values. Implemented by `#[derive(ParamEnum)]`.
pub trait ParamEnum: Sized + Send + Sync + 'static {
    /// The accepted wire values, in declaration order (lower snake_case unless renamed).
    const VALUES: &'static [&'static str];

    /// The variant whose wire value is exactly `value`.
    fn from_wire(value: &str) -> Option<Self>;

    /// This variant's wire value.
    fn to_wire(&self) -> &'static str;
}

/// A nested object parsed by serde and described by schemars. Implemented by
/// `#[derive(ParamObject)]`, which also provides the `Deserialize` and `JsonSchema` impls.
pub trait ParamObject: DeserializeOwned + JsonSchema + Send + 'static {}

/// A type that got [`Param`] from one of the two derives. Exists so that ONE blanket impl makes
/// `Option<T>` a parameter for both enums and objects.
pub trait DerivedParam: Param {}

impl<T: ParamObject> DerivedParam for T where T: Param {}

/// An optional enum or object: absent (or JSON `null`, as for every kind) means `None`; a present
/// value must parse as `T`.
impl<T: DerivedParam> Param for Option<T> {
    fn schema(spec: &ParamSpec) -> JsonObject {
        T::schema(spec)
    }

    fn is_required(_spec: &ParamSpec) -> bool {
        false
    }

    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
        match present(value) {
            None => Ok(None),
            Some(value) => T::parse(Some(value), spec).map(Some),
        }
    }
}

/// The schema of a [`ParamEnum`] parameter: a string restricted to the accepted values.
pub fn enum_schema<T: ParamEnum>(spec: &ParamSpec) -> JsonObject {
    let mut schema = typed_schema("string", spec);
    schema.insert(
        "enum".to_owned(),
        Value::Array(T::VALUES.iter().map(|v| Value::from(*v)).collect()),
    );
    schema
}

/// Parses a [`ParamEnum`] parameter: a string (trimmed, as every string parameter is) that must be
/// one of the accepted values; the refusal lists them.
pub fn enum_parse<T: ParamEnum>(value: Option<&Value>, spec: &ParamSpec) -> Result<T, ParamError> {
    match present(value) {
        None => Err(ParamError::Required { name: spec.name }),
        Some(Value::String(text)) => {
            let text = text.trim();
            if text.is_empty() {
                return Err(ParamError::Required { name: spec.name });
            }
            T::from_wire(text).ok_or_else(|| ParamError::NotOneOf {
                name: spec.name,
                accepted: T::VALUES,
                got: text.to_owned(),
            })
        }
        Some(_) => Err(ParamError::WrongType {
            name: spec.name,
            expected: "a string",
        }),
    }
}
