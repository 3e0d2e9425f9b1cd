//! A tool's input schema, assembled from its declaration, and the check every advertised schema
//! passes: JSON Schema 2020-12 (meta-validated) in the flat subset every MCP client reads.

use serde_json::Value;

use crate::declaration::ToolDeclaration;
use crate::param::{JsonObject, ParamDecl};

/// Which of its two input schemas a tool is advertised with. Every tool has both; they differ
/// only by the parameters declared `#[param(extended)]`, which the extended variant advertises
/// and the standard one leaves out.
///
/// What "extended" means is the server's: it picks a variant per endpoint (the wiki server
/// serves the extended one where a wiki may reach other wikis, so `wiki = ...` parameters exist
/// only there). Parsing never depends on the variant: an extended parameter is always accepted,
/// so the server can refuse it with a message of its own rather than "not a parameter".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SchemaVariant {
    /// Without the `extended` parameters.
    Standard,
    /// With every parameter.
    Extended,
}

impl SchemaVariant {
    /// Both variants, standard first.
    pub const ALL: [Self; 2] = [Self::Standard, Self::Extended];

    /// Whether this variant advertises a parameter declared with `spec`.
    pub const fn advertises(self, spec: &crate::param::ParamSpec) -> bool {
        matches!(self, Self::Extended) || !spec.extended
    }
}

impl std::fmt::Display for SchemaVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Standard => "standard",
            Self::Extended => "extended",
        })
    }
}

/// The input schema of `declaration` in `variant`: `{type: object, properties, required,
/// additionalProperties: false}`.
///
/// Properties keep declaration order; `required` is always present (possibly empty), as the
/// reference does; a `#[param(extended)]` parameter is advertised only in the extended variant.
pub fn input_schema(declaration: &ToolDeclaration, variant: SchemaVariant) -> JsonObject {
    object_schema(
        declaration
            .params
            .iter()
            .filter(|param| variant.advertises(&param.spec)),
    )
}

/// `{type: object, properties, required, additionalProperties: false}` of `params`, in their
/// order: a tool's input schema and a `ParamObject`'s are the same shape.
pub(crate) fn object_schema<'a>(params: impl IntoIterator<Item = &'a ParamDecl>) -> JsonObject {
    let mut properties = JsonObject::new();
    let mut required = Vec::new();
    for param in params {
        properties.insert(
            param.spec.name.to_owned(),
            Value::Object((param.schema)(&param.spec)),
        );
        if (param.required)(&param.spec) {
            required.push(Value::from(param.spec.name));
        }
    }
    let mut schema = JsonObject::new();
    schema.insert("type".to_owned(), "object".into());
    schema.insert("properties".to_owned(), Value::Object(properties));
    schema.insert("required".to_owned(), Value::Array(required));
    schema.insert("additionalProperties".to_owned(), false.into());
    schema
}

/// Why a schema may not be advertised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaProblem {
    /// The 2020-12 meta-schema refuses it.
    Invalid(String),
    /// An output schema whose root is not `"type": "object"` (MCP's `structuredContent` is an
    /// object).
    RootNotObject,
    /// It uses a construct many clients reject (`$ref`, `$defs`, a type array, a root title);
    /// `at` is a JSON pointer.
    NotFlat {
        /// Where, as a JSON pointer.
        at: String,
        /// What was found there.
        found: &'static str,
    },
}

impl std::fmt::Display for SchemaProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Invalid(reason) => write!(f, "not a valid JSON Schema 2020-12: {reason}"),
            Self::RootNotObject => f.write_str("its root is not `\"type\": \"object\"`"),
            Self::NotFlat { at, found } => write!(f, "not flat: {found} at `{at}`"),
        }
    }
}

/// Meta-validates `schema` as 2020-12 and checks it is flat: no `$ref`, `$defs`/`definitions`,
/// type arrays anywhere, and no root `title`.
pub fn check_schema(schema: &JsonObject) -> Result<(), SchemaProblem> {
    if schema.contains_key("title") {
        return Err(SchemaProblem::NotFlat {
            at: "/title".to_owned(),
            found: "a root title",
        });
    }
    check_flat(schema, &mut String::new())?;
    let value = Value::Object(schema.clone());
    jsonschema::draft202012::meta::validate(&value)
        .map_err(|error| SchemaProblem::Invalid(error.to_string()))
}

/// [`check_schema`] for an output schema, whose root must also be `"type": "object"`.
pub fn check_output_schema(schema: &JsonObject) -> Result<(), SchemaProblem> {
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err(SchemaProblem::RootNotObject);
    }
    check_schema(schema)
}

/// Keywords whose value is a map from names to subschemas (the names are data, not keywords).
const SCHEMA_MAPS: &[&str] = &["properties", "patternProperties", "dependentSchemas"];
/// Keywords whose value is data, never a subschema.
const DATA_KEYWORDS: &[&str] = &["enum", "const", "default", "examples", "required"];

fn check_flat(schema: &JsonObject, at: &mut String) -> Result<(), SchemaProblem> {
    let problem = |at: &str, key: &str, found| SchemaProblem::NotFlat {
        at: format!("{at}/{key}"),
        found,
    };
    for (key, value) in schema {
        match key.as_str() {
            "$ref" | "$dynamicRef" => return Err(problem(at, key, "a reference")),
            "$defs" | "definitions" => return Err(problem(at, key, "definitions")),
            "type" if value.is_array() => return Err(problem(at, key, "a type array")),
            key if DATA_KEYWORDS.contains(&key) => {}
            key if SCHEMA_MAPS.contains(&key) => {
                if let Value::Object(map) = value {
                    for (name, subschema) in map {
                        descend(subschema, at, &format!("{key}/{name}"))?;
                    }
                }
            }
            _ => match value {
                Value::Object(_) => descend(value, at, key)?,
                Value::Array(items) => {
                    for (index, item) in items.iter().enumerate() {
                        descend(item, at, &format!("{key}/{index}"))?;
                    }
                }
                _ => {}
            },
        }
    }
    Ok(())
}

fn descend(value: &Value, at: &mut String, step: &str) -> Result<(), SchemaProblem> {
    let Value::Object(subschema) = value else {
        return Ok(());
    };
    let len = at.len();
    at.push('/');
    at.push_str(step);
    let result = check_flat(subschema, at);
    at.truncate(len);
    result
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(object) => object,
            other => panic!("not an object: {other}"),
        }
    }

    #[test]
    fn flat_valid_schema_passes() {
        let schema = object(json!({
            "type": "object",
            "properties": {"title": {"type": "string", "enum": ["$ref"]}, "$ref": {"type": "integer"}},
            "required": ["title"],
            "additionalProperties": false
        }));
        assert_eq!(check_schema(&schema), Ok(()));
    }

    #[test]
    fn non_flat_constructs_are_located() {
        let cases = [
            (json!({"title": "T", "type": "object"}), "/title"),
            (
                json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}),
                "/properties/a/$ref",
            ),
            (json!({"type": "object", "$defs": {}}), "/$defs"),
            (
                json!({"type": "array", "items": {"anyOf": [{"type": ["string", "null"]}]}}),
                "/items/anyOf/0/type",
            ),
        ];
        for (schema, pointer) in cases {
            match check_schema(&object(schema)) {
                Err(SchemaProblem::NotFlat { at, .. }) => assert_eq!(at, pointer),
                other => panic!("expected NotFlat at {pointer}, got {other:?}"),
            }
        }
    }

    #[test]
    fn meta_invalid_schema_is_refused() {
        let result = check_schema(&object(json!({"type": "strin"})));
        assert!(
            matches!(result, Err(SchemaProblem::Invalid(_))),
            "{result:?}"
        );
    }
}
