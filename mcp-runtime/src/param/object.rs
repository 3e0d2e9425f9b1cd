//! Nested objects: `T`, `Vec<T>` (and, through [`DerivedParam`](super::DerivedParam),
//! `Option<T>`) for `T: ParamObject`, parsed by serde and described by schemars.
//!
//! schemars writes for itself: `$schema`, a root `title`, `$defs` + `$ref`, `["T", "null"]` type
//! arrays and `{"type": "null"}` arms for `Option` fields. Many MCP clients reject those, so the
//! schema is generated with subschemas inlined and then [flattened](flatten): the advertised
//! shape is the plain 2020-12 subset every client reads. serde's errors are rewritten to name the
//! parameter, and the serde text inside them is guarded (it may quote the agent's value).

use schemars::generate::SchemaSettings;
use serde_json::Value;

use super::{JsonObject, Param, ParamError, ParamObject, ParamSpec, present, typed_schema};
use crate::output::guard::fragment;

/// `T`'s schema, inlined and flattened, with the parameter's description (the field's doc
/// comment, which is what the agent needs) instead of the type's own.
pub fn object_schema<T: ParamObject>(spec: &ParamSpec) -> JsonObject {
    let mut schema = inlined_schema::<T>();
    schema.insert("description".to_owned(), spec.description.into());
    schema
}

/// Parses a nested object with serde; absent (or `null`) is [`ParamError::Required`].
pub fn object_parse<T: ParamObject>(
    value: Option<&Value>,
    spec: &ParamSpec,
) -> Result<T, ParamError> {
    let value = present(value).ok_or(ParamError::Required { name: spec.name })?;
    deserialize(value, spec, None)
}

fn deserialize<T: ParamObject>(
    value: &Value,
    spec: &ParamSpec,
    element: Option<usize>,
) -> Result<T, ParamError> {
    T::deserialize(value).map_err(|error| ParamError::Invalid {
        name: spec.name,
        message: match element {
            None => format!("is invalid: {}.", fragment(&error.to_string())),
            Some(index) => format!(
                "element {index} is invalid: {}.",
                fragment(&error.to_string())
            ),
        },
    })
}

fn inlined_schema<T: ParamObject>() -> JsonObject {
    let settings = SchemaSettings::draft2020_12().with(|settings| {
        settings.inline_subschemas = true;
        settings.meta_schema = None;
    });
    let mut schema = Value::from(settings.into_generator().into_root_schema_for::<T>());
    flatten(&mut schema);
    match schema {
        Value::Object(mut object) => {
            object.remove("title");
            object
        }
        // A boolean schema `true` (anything goes) reads as the empty schema.
        _ => JsonObject::new(),
    }
}

/// Rewrites schemars output into the flat subset: drops `$schema`/`$defs`, `null` arms of
/// `type` arrays, `anyOf`/`oneOf` and `enum`, and folds a single remaining arm into its parent.
/// Optional means "not in `required`", so a `null` arm says nothing a client needs.
pub(crate) fn flatten(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    object.remove("$schema");
    object.remove("$defs");
    if let Some(Value::Array(types)) = object.get_mut("type") {
        types.retain(|t| t != "null");
        if let [single] = types.as_slice() {
            let single = single.clone();
            object.insert("type".to_owned(), single);
        }
    }
    if let Some(Value::Array(values)) = object.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    for combinator in ["anyOf", "oneOf"] {
        let Some(Value::Array(arms)) = object.get_mut(combinator) else {
            continue;
        };
        arms.retain(|arm| {
            arm.get("type").and_then(Value::as_str) != Some("null")
                && arm.get("const").is_none_or(|c| !c.is_null())
        });
        if arms.len() == 1
            && let Some(Value::Object(arm)) = arms.pop()
        {
            object.remove(combinator);
            for (key, value) in arm {
                object.entry(key).or_insert(value);
            }
        }
    }
    for value in object.values_mut() {
        match value {
            Value::Object(_) => flatten(value),
            Value::Array(items) => items.iter_mut().for_each(flatten),
            _ => {}
        }
    }
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
        schema.insert("items".to_owned(), Value::Object(inlined_schema::<T>()));
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
                .map(|(index, item)| deserialize(item, spec, Some(index)))
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
    use schemars::JsonSchema;
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    /// A field filter.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Filter {
        /// The field name.
        field: String,
        /// How to compare.
        op: Option<Op>,
        /// Nested bounds.
        bounds: Option<Bounds>,
    }

    /// A comparison.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(rename_all = "snake_case")]
    enum Op {
        /// Equal.
        Equals,
        /// Contains.
        Contains,
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    struct Bounds {
        low: i64,
        high: Option<i64>,
    }

    impl ParamObject for Filter {}

    const SPEC: ParamSpec = ParamSpec::new("filter", "What to keep.");

    fn assert_flat(value: &Value) {
        match value {
            Value::Object(object) => {
                for key in ["$ref", "$defs", "$schema", "definitions"] {
                    assert!(!object.contains_key(key), "{key} in {value}");
                }
                if let Some(kind) = object.get("type") {
                    assert!(kind.is_string(), "type array in {value}");
                }
                object.values().for_each(assert_flat);
            }
            Value::Array(items) => items.iter().for_each(assert_flat),
            _ => {}
        }
    }

    #[test]
    fn schema_is_inlined_flat_and_described_by_the_field() {
        let schema = Value::Object(Filter::schema(&SPEC));
        assert_flat(&schema);
        assert_eq!(schema["description"], "What to keep.");
        assert!(schema.get("title").is_none());
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], json!(["field"]));
        assert_eq!(
            schema["properties"]["bounds"]["properties"]["high"]["type"],
            "integer"
        );
        assert_eq!(schema["additionalProperties"], json!(false));
        let items = Value::Object(Vec::<Filter>::schema(&SPEC));
        assert_flat(&items);
        assert_eq!(items["type"], "array");
        assert!(items["items"].get("title").is_none());
    }

    #[test]
    fn parses_with_serde() {
        let parsed = Filter::parse(
            Some(&json!({"field": "size", "op": "contains", "bounds": {"low": 1}})),
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
    fn serde_errors_name_the_parameter_and_are_guarded() {
        let missing =
            Filter::parse(Some(&json!({"op": "equals"})), &SPEC).map_err(|e| e.to_string());
        assert_eq!(
            missing,
            Err("Error: 'filter' is invalid: missing field `field`.".to_owned())
        );
        let forged = Filter::parse(Some(&json!({"field": "a", "op": "x\ny"})), &SPEC)
            .map_err(|e| e.to_string())
            .unwrap_err();
        assert!(
            forged.starts_with("Error: 'filter' is invalid: unknown variant `xy`"),
            "{forged}"
        );
        assert_eq!(
            Filter::parse(None, &SPEC),
            Err(ParamError::Required { name: "filter" })
        );
        let element = Vec::<Filter>::parse(Some(&json!([{"field": "a"}, {"field": 1}])), &SPEC)
            .map_err(|e| e.to_string())
            .unwrap_err();
        assert!(
            element.starts_with("Error: 'filter' element 1 is invalid: invalid type"),
            "{element}"
        );
        assert_eq!(
            Vec::<Filter>::parse(Some(&json!({"field": "a"})), &SPEC).map_err(|e| e.to_string()),
            Err("Error: 'filter' must be an array of objects.".to_owned())
        );
    }

    #[test]
    fn optional_object_comes_from_the_derived_blanket() {
        assert_eq!(Option::<Filter>::parse(None, &SPEC), Ok(None));
        assert!(!Option::<Filter>::is_required(&SPEC));
        assert!(Filter::is_required(&SPEC));
    }

    #[test]
    fn flatten_drops_null_arms() {
        let mut schema = json!({
            "type": ["string", "null"],
            "properties": {
                "a": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}], "description": "A."},
                "b": {"enum": ["x", null]}
            }
        });
        flatten(&mut schema);
        assert_eq!(
            schema,
            json!({
                "type": "string",
                "properties": {
                    "a": {"description": "A.", "type": "integer", "minimum": 0},
                    "b": {"enum": ["x"]}
                }
            })
        );
    }
}
