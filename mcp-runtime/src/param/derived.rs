//! The traits behind the two parameter derives, `#[derive(ParamEnum)]` and
//! `#[derive(ParamObject)]`, and the glue that makes `Option<T>` a parameter for both.
//!
//! CONTRACT (mcp-macros emits, this crate implements):
//! - `#[derive(ParamEnum)]` emits `impl ParamEnum`, `impl Param` (delegating to [`enum_schema`] and
//!   [`enum_parse`]) and `impl DerivedParam`. The derive must emit `Param` itself: a second blanket
//!   `impl<T: ParamEnum> Param for T` would overlap the object one below.
//! - `#[derive(ParamObject)]` emits `impl ParamObject` (its fields' declarations and parser).
//!   `Param` for `T` and `Vec<T>` comes from blanket impls bounded on [`ParamObject`] (param's
//!   object module), and [`DerivedParam`] from the blanket impl here.
//! - `Option<T>` for either kind comes from the one blanket impl here, bounded on [`DerivedParam`]
//!   (two blankets on `Option<T>`, one per derive, would overlap).

use serde_json::Value;

use super::{JsonObject, Param, ParamError, ParamObject, ParamSpec, present, typed_schema};

/// A unit enum whose variants are the accepted string values. Implemented by `#[derive(ParamEnum)]`.
pub trait ParamEnum: Sized + Send + Sync + 'static {
    /// The accepted wire values, in declaration order (lower snake_case unless renamed).
    const VALUES: &'static [&'static str];

    /// Each value's doc comment, in the order of [`VALUES`](Self::VALUES) (`""` where a variant
    /// has none): the schema's description lists them, so an agent (and `man`) reads what each
    /// value does.
    const DOCS: &'static [&'static str] = &[];

    /// The variant whose wire value is exactly `value`.
    fn from_wire(value: &str) -> Option<Self>;

    /// This variant's wire value.
    fn to_wire(&self) -> &'static str;
}

/// A type that got [`Param`] from one of the two derives. Exists so that ONE blanket impl makes
/// `Option<T>` a parameter for both enums and objects.
pub trait DerivedParam: Param {}

impl<T: ParamObject> DerivedParam for T where T: Param {}

/// An optional enum or object: absent (or JSON `null`, as for every kind) means `None`, and so
/// does a blank enum string; any other present value must parse as `T`.
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
            // A value `T` would refuse as missing (a blank enum string) is absent here, as a
            // blank optional string is: agents often send "" for "not set".
            Some(value) => match T::parse(Some(value), spec) {
                Err(ParamError::Required { .. }) => Ok(None),
                parsed => parsed.map(Some),
            },
        }
    }
}

/// The schema of a [`ParamEnum`] parameter: a string restricted to the accepted values, a plain
/// `enum` (a `oneOf` of `const`s with their own descriptions is outside the subset Gemini and
/// other clients accept). The values' doc comments, when the variants have any, follow the
/// field's description as a list: `- value: what it does`.
pub fn enum_schema<T: ParamEnum>(spec: &ParamSpec) -> JsonObject {
    let mut schema = typed_schema("string", spec);
    if T::DOCS.iter().any(|doc| !doc.is_empty()) {
        let mut description = spec.description.to_owned();
        for (value, doc) in T::VALUES.iter().zip(T::DOCS) {
            description.push_str("\n- ");
            description.push_str(value);
            if !doc.is_empty() {
                description.push_str(": ");
                description.push_str(doc);
            }
        }
        schema.insert("description".to_owned(), description.into());
    }
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Listing order.
    #[derive(Debug, PartialEq, mcp_macros::ParamEnum)]
    enum Order {
        NewestFirst,
        #[param(rename = "old")]
        OldestFirst,
    }

    /// Listing order, documented.
    #[derive(Debug, PartialEq, mcp_macros::ParamEnum)]
    enum Documented {
        /// The latest change first,
        /// then older ones.
        NewestFirst,
        Oldest,
    }

    const SPEC: ParamSpec = ParamSpec::new("order", "Listing order.");

    #[test]
    fn the_schema_is_a_string_with_the_wire_values() {
        assert_eq!(
            Value::Object(enum_schema::<Order>(&SPEC)),
            json!({"type": "string", "description": "Listing order.", "enum": ["newest_first", "old"]})
        );
        assert_eq!(
            Value::Object(enum_schema::<Documented>(&SPEC)),
            json!({
                "type": "string",
                "description": "Listing order.\n- newest_first: The latest change first, then older ones.\n- oldest",
                "enum": ["newest_first", "oldest"]
            })
        );
        assert!(<Order as Param>::is_required(&SPEC));
        assert!(!<Option<Order> as Param>::is_required(&SPEC));
    }

    #[test]
    fn values_parse_trimmed_and_exact() {
        let parse = |value: Value| Order::parse(Some(&value), &SPEC);
        assert_eq!(parse(json!(" old ")), Ok(Order::OldestFirst));
        assert_eq!(parse(json!("newest_first")), Ok(Order::NewestFirst));
        assert_eq!(Order::OldestFirst.to_wire(), "old");
    }

    #[test]
    fn refusals_name_the_parameter_and_list_the_values() {
        let parse = |value: Value| Order::parse(Some(&value), &SPEC);
        assert_eq!(
            parse(json!("Old")),
            Err(ParamError::NotOneOf {
                name: "order",
                accepted: &["newest_first", "old"],
                got: "Old".to_owned(),
            })
        );
        assert_eq!(
            parse(json!(1)),
            Err(ParamError::WrongType {
                name: "order",
                expected: "a string",
            })
        );
        assert_eq!(
            Order::parse(None, &SPEC),
            Err(ParamError::Required { name: "order" })
        );
        assert_eq!(
            parse(json!(null)),
            Err(ParamError::Required { name: "order" })
        );
        assert_eq!(
            parse(json!("  ")),
            Err(ParamError::Required { name: "order" })
        );
    }

    #[test]
    fn an_optional_enum_is_absent_when_missing_null_or_blank() {
        let parse = |value: Option<Value>| Option::<Order>::parse(value.as_ref(), &SPEC);
        assert_eq!(parse(None), Ok(None));
        assert_eq!(parse(Some(json!(null))), Ok(None));
        assert_eq!(parse(Some(json!(""))), Ok(None));
        assert_eq!(parse(Some(json!("old"))), Ok(Some(Order::OldestFirst)));
        assert!(matches!(
            parse(Some(json!("new"))),
            Err(ParamError::NotOneOf { name: "order", .. })
        ));
    }
}
