//! Objects: a struct with `#[derive(ParamObject)]` is a group of parameters, used two ways:
//! - as ONE parameter whose value is a JSON object (`T`, `Vec<T>` and, through
//!   [`DerivedParam`](super::DerivedParam), `Option<T>`): its fields are the object's properties;
//! - flattened into a tool with `#[param(flatten)]`: its fields are the tool's own top-level
//!   parameters, so several tools share one declaration of them, docs included.
//!
//! Either way each field is a parameter like a tool's: its type's [`Param`] impl gives its schema
//! and parses it, and its `#[param(...)]` keys (`default`, `range`, `raw`, ...) mean what they
//! mean on a tool. So the types and keys are one table, an object's schema is the same flat
//! subset every client reads, and a refused property is named as its parameter
//! (`Error: 'edits' element 1 is invalid: 'old_string' parameter is required.`), never by a
//! Rust type's name.

use serde_json::Value;

use super::group::refuse_unknown;
use super::{JsonObject, Param, ParamDecl, ParamError, ParamSpec, present, typed_schema};

/// A struct of parameters. Implemented by `#[derive(ParamObject)]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a ParamObject",
    label = "`#[param(flatten)]` and object parameters take a struct with #[derive(ParamObject)]",
    note = "add `#[derive(ParamObject)]` to `{Self}` (a struct whose fields, each with a doc \
            comment, are parameters)"
)]
pub trait ParamObject: Sized + Send + 'static {
    /// The fields' declarations, in order (with flattened groups in their place).
    const PARAMS: &'static [ParamDecl];

    /// Parses every field from `args` (the tool's arguments when flattened, the object's
    /// properties when nested). Unknown names are the caller's to refuse: a flattened group
    /// shares its arguments with the tool's other parameters.
    fn parse_fields(args: &JsonObject) -> Result<Self, ParamError>;
}

/// The schema of an object of `T`'s fields (no description: the caller adds its own).
fn properties_schema<T: ParamObject>() -> JsonObject {
    crate::schema::object_schema(T::PARAMS)
}

/// `T`'s object schema, described by the parameter's description (the field's doc comment,
/// which is what the agent needs).
pub fn object_schema<T: ParamObject>(spec: &ParamSpec) -> JsonObject {
    let mut schema = JsonObject::new();
    schema.insert("type".to_owned(), "object".into());
    schema.insert("description".to_owned(), spec.description.into());
    schema.extend(properties_schema::<T>());
    schema
}

/// Parses a nested object; absent (or `null`) is [`ParamError::Required`].
pub fn object_parse<T: ParamObject>(
    value: Option<&Value>,
    spec: &ParamSpec,
) -> Result<T, ParamError> {
    let value = present(value).ok_or(ParamError::Required { name: spec.name })?;
    parse_element(value, spec, None)
}

/// One object: its properties refused when unknown, then parsed; a refusal names the
/// parameter, the element and the property.
fn parse_element<T: ParamObject>(
    value: &Value,
    spec: &ParamSpec,
    element: Option<usize>,
) -> Result<T, ParamError> {
    let Value::Object(properties) = value else {
        return Err(match element {
            None => ParamError::WrongType {
                name: spec.name,
                expected: "an object",
            },
            Some(_) => ParamError::WrongType {
                name: spec.name,
                expected: "an array of objects",
            },
        });
    };
    refuse_unknown(properties, T::PARAMS)
        .and_then(|()| T::parse_fields(properties))
        .map_err(|inner| ParamError::InObject {
            name: spec.name,
            element,
            inner: Box::new(inner),
        })
}

impl<T: ParamObject> Param for T {
    fn schema(spec: &ParamSpec) -> JsonObject {
        object_schema::<T>(spec)
    }

    fn is_required(_: &ParamSpec) -> bool {
        true
    }

    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
        object_parse(value, spec)
    }
}

impl<T: ParamObject> Param for Vec<T> {
    fn schema(spec: &ParamSpec) -> JsonObject {
        let mut schema = typed_schema("array", spec);
        schema.insert("items".to_owned(), Value::Object(properties_schema::<T>()));
        schema
    }

    fn is_required(spec: &ParamSpec) -> bool {
        spec.required
    }

    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
        match present(value) {
            None if spec.required => Err(ParamError::Required { name: spec.name }),
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(index, item)| parse_element(item, spec, Some(index)))
                .collect(),
            Some(_) => Err(ParamError::WrongType {
                name: spec.name,
                expected: "an array of objects",
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::prelude::*;

    /// A comparison.
    #[derive(Debug, PartialEq, ParamEnum)]
    enum Op {
        /// Equal.
        Equals,
        /// Contains.
        Contains,
    }

    /// Bounds.
    #[derive(Debug, PartialEq, ParamObject)]
    struct Bounds {
        /// The least value.
        low: i64,
        /// The greatest value.
        high: Option<u32>,
    }

    /// A field filter.
    #[derive(Debug, PartialEq, ParamObject)]
    struct Filter {
        /// The field name.
        field: String,
        /// How to compare.
        op: Option<Op>,
        /// Nested bounds.
        bounds: Option<Bounds>,
    }

    const SPEC: ParamSpec = ParamSpec::new("filter", "What to keep.");

    #[test]
    fn schema_is_flat_and_described_by_the_field() {
        let schema = Value::Object(Filter::schema(&SPEC));
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "description": "What to keep.",
                "properties": {
                    "field": {"type": "string", "description": "The field name.", "pattern": "\\S"},
                    "op": {"type": "string", "description": "How to compare.\n- equals: Equal.\n- contains: Contains.", "enum": ["equals", "contains"]},
                    "bounds": {
                        "type": "object",
                        "description": "Nested bounds.",
                        "properties": {
                            "low": {"type": "integer", "description": "The least value."},
                            "high": {"type": "integer", "description": "The greatest value.", "minimum": 0, "maximum": 4294967295_u32}
                        },
                        "required": ["low"],
                        "additionalProperties": false
                    }
                },
                "required": ["field"],
                "additionalProperties": false
            })
        );
        let items = Value::Object(Vec::<Filter>::schema(&SPEC));
        assert_eq!(items["type"], "array");
        assert_eq!(items["items"]["required"], json!(["field"]));
        assert!(items["items"].get("description").is_none());
    }

    #[test]
    fn parses_each_property_as_its_parameter() {
        let parsed = Filter::parse(
            Some(&json!({"field": " size ", "op": "contains", "bounds": {"low": "1"}})),
            &SPEC,
        );
        assert_eq!(
            parsed,
            Ok(Filter {
                field: "size".to_owned(),
                op: Some(Op::Contains),
                bounds: Some(Bounds { low: 1, high: None }),
            })
        );
        assert_eq!(
            Vec::<Filter>::parse(Some(&json!([{"field": "a"}, {"field": "b"}])), &SPEC)
                .map(|v| v.len()),
            Ok(2)
        );
        assert_eq!(Vec::<Filter>::parse(None, &SPEC), Ok(vec![]));
    }

    #[test]
    fn refusals_name_the_parameter_then_the_property() {
        let refused = |value: Value| Filter::parse(Some(&value), &SPEC).map_err(|e| e.to_string());
        assert_eq!(
            refused(json!({"op": "equals"})),
            Err("Error: 'filter' is invalid: 'field' parameter is required.".to_owned())
        );
        assert_eq!(
            refused(json!({"field": "a", "bounds": {"low": 1, "high": -1}})),
            Err(
                "Error: 'filter' is invalid: 'bounds' is invalid: 'high' must be between 0 \
                 and 4294967295 (got -1)."
                    .to_owned()
            )
        );
        assert_eq!(
            refused(json!({"field": "a", "sort": 1})),
            Err(
                "Error: 'filter' is invalid: 'sort' is not a property of this object. \
                 Accepted properties: field, op, bounds."
                    .to_owned()
            )
        );
        assert_eq!(
            refused(json!("a")),
            Err("Error: 'filter' must be an object.".to_owned())
        );
        let forged = refused(json!({"field": "a", "op": "x\ny"})).unwrap_err();
        assert!(
            forged.starts_with(
                "Error: 'filter' is invalid: 'op' must be one of: equals, \
                                contains (got \"xy\")"
            ),
            "{forged}"
        );
        assert_eq!(
            Filter::parse(None, &SPEC),
            Err(ParamError::Required { name: "filter" })
        );
        let element = Vec::<Filter>::parse(Some(&json!([{"field": "a"}, {"field": 1}])), &SPEC)
            .map_err(|e| e.to_string());
        assert_eq!(
            element,
            Err("Error: 'filter' element 1 is invalid: 'field' must be a string.".to_owned())
        );
        assert_eq!(
            Vec::<Filter>::parse(Some(&json!([{"field": "a"}, 2])), &SPEC)
                .map_err(|e| e.to_string()),
            Err("Error: 'filter' must be an array of objects.".to_owned())
        );
    }

    #[test]
    fn optional_object_comes_from_the_derived_blanket() {
        assert_eq!(Option::<Filter>::parse(None, &SPEC), Ok(None));
        assert!(!Option::<Filter>::is_required(&SPEC));
        assert!(Filter::is_required(&SPEC));
    }
}
