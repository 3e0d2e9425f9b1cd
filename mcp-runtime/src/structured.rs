//! Structured output: the `outputSchema` a tool declared with `#[mcp_tool(..., output = T)]`
//! advertises, derived from `T` (the type its [`Structured`](crate::tool::Structured) value has),
//! and the serialization of that value into `structuredContent`.
//!
//! The schema is what `T`'s `Serialize` writes (schemars' serialize contract, JSON Schema
//! 2020-12), made flat for the clients that read it: subschemas inlined, no root `title` or
//! `$schema`, and a type spelled once (`"type": ["string", "null"]` is an `anyOf` of single
//! types, which more clients' schema subsets accept). It is also lean, since every client
//! sends it on each `tools/list` and what it is for is checking `structuredContent`, not
//! teaching the model: no `description` (the type's doc comments are for its authors; the
//! tool's description and manual say what a result means), no `format` a common client does
//! not know (schemars' `uint64`, `int32`, `double`…) and no `minimum: 0` (what an unsigned type
//! writes: a bound on what the server itself sends checks nothing), and an enum documented per
//! variant (a `oneOf` of `const`s, which some clients' schema subsets refuse) becomes a plain
//! `enum`. A key whose value would be `null` is left out of `structuredContent`
//! (`to_structured_content`), so an `Option` field is a property of its plain type rather than
//! an `anyOf` with `null`: absent says "none" as `null` did, in fewer characters on both sides.
//! Nor does the schema list `required` keys: every key a result may hold is described, with its
//! type, and which ones a result holds follows from the call (its mode, what was found), as the
//! tool's manual says; the lists cost a tenth of every listing and told the model nothing.
//! Whatever cannot be flattened (a recursive type keeps
//! its `$ref`) is refused when the tool is registered, naming the type
//! ([`crate::Error::InvalidOutputSchema`]); so is a root that is not an object, which MCP
//! requires.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde::Serialize;
use serde_json::Value;

use crate::param::JsonObject;

/// A type a tool can declare as its `output`: what it serializes to is its schema.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's structured output",
    label = "declared as `output = {Self}` here",
    note = "an output type derives `Serialize` and `JsonSchema` (`#[mcp_output]` on the type does both, through mcp-runtime's own serde and schemars)"
)]
pub trait OutputType: Serialize + JsonSchema + Send + 'static {}

impl<T: Serialize + JsonSchema + Send + 'static> OutputType for T {}

/// What `output = T` puts in a tool's declaration.
#[derive(Debug, Clone, Copy)]
pub struct OutputDecl {
    /// `T`'s name, for the registration errors.
    pub type_name: &'static str,
    /// `T`'s flat output schema ([`output_schema`]).
    pub schema: fn() -> JsonObject,
}

impl OutputDecl {
    /// The declaration of `T`, named `type_name` (as the author wrote it), as a tool's output.
    pub const fn of<T: OutputType>(type_name: &'static str) -> Self {
        Self {
            type_name,
            schema: output_schema::<T>,
        }
    }
}

/// The flat output schema of `T` (see the module doc); checked at registration, not here.
pub fn output_schema<T: JsonSchema>() -> JsonObject {
    let mut settings = SchemaSettings::draft2020_12().for_serialize();
    settings.inline_subschemas = true;
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut object = match schema.to_value() {
        Value::Object(object) => object,
        // `true` / `false` schemas: not an object root, which the registration check refuses.
        other => JsonObject::from_iter([("const".to_owned(), other)]),
    };
    object.remove("$schema");
    object.remove("title");
    visit(&mut object, &mut |schema| {
        single_types(schema);
        plain_enum(schema);
        drop_unknown_format(schema);
        schema.remove("description");
        if schema.get("minimum") == Some(&Value::from(0)) {
            schema.remove("minimum");
        }
    });
    // After the rewrites above, so every nullable property is an `anyOf` by now.
    visit(&mut object, &mut |schema| {
        schema.remove("required");
        if let Some(Value::Object(properties)) = schema.get_mut("properties") {
            for property in properties.values_mut() {
                if let Value::Object(property) = property {
                    without_null(property);
                }
            }
        }
    });
    object
}

/// Rewrites `anyOf: [X, {"type": "null"}]` (either order) into `X`, keeping the keywords beside
/// the `anyOf` (schemars writes an optional struct's `properties` there).
fn without_null(schema: &mut JsonObject) {
    let Some(Value::Array(alternatives)) = schema.get("anyOf") else {
        return;
    };
    let null = Value::Object(JsonObject::from_iter([("type".to_owned(), "null".into())]));
    let [first, second] = alternatives.as_slice() else {
        return;
    };
    let other = match (first == &null, second == &null) {
        (true, false) => second,
        (false, true) => first,
        _ => return,
    };
    let Value::Object(other) = other.clone() else {
        return;
    };
    schema.remove("anyOf");
    for (key, value) in other {
        schema.entry(key).or_insert(value);
    }
}

/// The `format` values of JSON Schema 2020-12 that common clients recognise; any other is
/// dropped ([`drop_unknown_format`]).
const KNOWN_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "uuid",
    "regex",
];

/// Removes a `format` a client would not know (schemars writes `uint64`, `int32`, `double`…
/// for Rust's number types; the bounds it writes alongside, such as `minimum: 0`, stay).
fn drop_unknown_format(schema: &mut JsonObject) {
    if let Some(Value::String(format)) = schema.get("format")
        && !KNOWN_FORMATS.contains(&format.as_str())
    {
        schema.remove("format");
    }
}

/// Rewrites a `oneOf` whose alternatives are all constants (what schemars writes for an enum
/// with a doc comment per variant) into a plain `enum`.
fn plain_enum(schema: &mut JsonObject) {
    let Some(Value::Array(alternatives)) = schema.get("oneOf") else {
        return;
    };
    let mut values = Vec::new();
    let mut kinds = Vec::new();
    for alternative in alternatives {
        let Value::Object(alternative) = alternative else {
            return;
        };
        let Some(value) = alternative.get("const") else {
            return;
        };
        if alternative
            .keys()
            .any(|key| !matches!(key.as_str(), "const" | "type" | "description"))
        {
            return;
        }
        if let Some(kind) = alternative.get("type")
            && !kinds.contains(kind)
        {
            kinds.push(kind.clone());
        }
        values.push(value.clone());
    }
    schema.remove("oneOf");
    if let [kind] = kinds.as_slice() {
        schema.insert("type".to_owned(), kind.clone());
    }
    schema.insert("enum".to_owned(), Value::Array(values));
}

/// Calls `change` on `schema` and then on every subschema under it (depth first, each node
/// before its children, so a rewrite's new subschemas are visited too).
fn visit(schema: &mut JsonObject, change: &mut impl FnMut(&mut JsonObject)) {
    change(schema);
    for (key, value) in schema.iter_mut() {
        if matches!(
            key.as_str(),
            "enum" | "const" | "default" | "examples" | "required"
        ) {
            continue;
        }
        let in_map = matches!(
            key.as_str(),
            "properties" | "patternProperties" | "dependentSchemas"
        );
        match value {
            Value::Object(map) if in_map => {
                for subschema in map.values_mut() {
                    if let Value::Object(subschema) = subschema {
                        visit(subschema, change);
                    }
                }
            }
            Value::Object(subschema) => visit(subschema, change),
            Value::Array(items) => {
                for item in items {
                    if let Value::Object(subschema) = item {
                        visit(subschema, change);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Rewrites `"type": [a, b]` into `"anyOf": [{"type": a}, {"type": b}]`.
fn single_types(schema: &mut JsonObject) {
    if let Some(Value::Array(types)) = schema.get("type") {
        let alternatives: Vec<Value> = types
            .iter()
            .map(|kind| Value::Object(JsonObject::from_iter([("type".to_owned(), kind.clone())])))
            .collect();
        schema.remove("type");
        schema.insert("anyOf".to_owned(), Value::Array(alternatives));
    }
}

/// `value` as the `structuredContent` object, or why it cannot be (a serializer error, or a
/// value that is not an object: the registration check makes the schema refuse those). Keys
/// whose value is `null` are left out, at every depth (an array keeps its `null` items): the
/// schema lists those properties as optional ([`output_schema`]).
pub(crate) fn to_structured_content<T: Serialize>(value: &T) -> Result<JsonObject, String> {
    match serde_json::to_value(value) {
        Ok(Value::Object(mut object)) => {
            drop_null_keys(&mut object);
            Ok(object)
        }
        Ok(other) => Err(format!(
            "serialized to a {} rather than an object",
            kind(&other)
        )),
        Err(error) => Err(error.to_string()),
    }
}

/// Removes the keys whose value is `null` from `object` and from every object under it.
fn drop_null_keys(object: &mut JsonObject) {
    object.retain(|_, value| !value.is_null());
    for value in object.values_mut() {
        drop_null_keys_in(value);
    }
}

fn drop_null_keys_in(value: &mut Value) {
    match value {
        Value::Object(object) => drop_null_keys(object),
        Value::Array(items) => items.iter_mut().for_each(drop_null_keys_in),
        _ => {}
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::schema::check_schema;

    /// A hit.
    #[derive(Serialize, JsonSchema)]
    #[allow(dead_code)]
    struct Hit {
        /// The page.
        reference: String,
        /// Its title, when it has one.
        title: Option<String>,
    }

    /// Hits.
    #[derive(Serialize, JsonSchema)]
    #[allow(dead_code)]
    struct Hits {
        /// In rank order.
        hits: Vec<Hit>,
        /// How many matched in all.
        total: u64,
        /// How they were found: `keyword` or `semantic`.
        found_by: FoundBy,
        mode: Mode,
    }

    #[derive(Serialize, JsonSchema)]
    #[serde(rename_all = "snake_case")]
    #[allow(dead_code)]
    enum Mode {
        /// Words only.
        Plain,
        /// Both ways.
        Fused,
    }

    /// How a hit was found.
    #[derive(Serialize, JsonSchema)]
    #[serde(rename_all = "snake_case")]
    #[allow(dead_code)]
    enum FoundBy {
        /// By its words.
        Keyword,
        /// By its meaning.
        Semantic,
    }

    #[test]
    fn numbers_carry_no_unknown_format_enums_are_plain_and_nothing_is_described() {
        let schema = output_schema::<Hits>();
        assert_eq!(check_schema(&schema), Ok(()));
        let total = &schema["properties"]["total"];
        assert_eq!(total, &json!({"type": "integer"}));
        let found_by = &schema["properties"]["found_by"];
        assert_eq!(
            found_by,
            &json!({"type": "string", "enum": ["keyword", "semantic"]})
        );
        let mode = &schema["properties"]["mode"];
        assert_eq!(mode, &json!({"type": "string", "enum": ["plain", "fused"]}));
        let text = Value::Object(schema).to_string();
        assert!(!text.contains("description"), "{text}");
    }

    #[test]
    fn nested_and_optional_types_give_a_flat_object_schema() {
        let schema = output_schema::<Hits>();
        assert_eq!(check_schema(&schema), Ok(()));
        assert_eq!(schema.get("type"), Some(&json!("object")));
        assert!(!schema.contains_key("title") && !schema.contains_key("$schema"));
        let title = &schema["properties"]["hits"]["items"]["properties"]["title"];
        assert_eq!(
            title,
            &json!({"type": "string"}),
            "an Option is left out when None"
        );
        assert!(!Value::Object(schema).to_string().contains("required"));
    }

    #[test]
    fn null_keys_are_left_out_at_every_depth_and_null_items_kept() {
        let content = to_structured_content(&json!({
            "a": null, "b": {"c": null, "d": 1}, "e": [null, {"f": null}]
        }));
        assert_eq!(
            content.map(Value::Object),
            Ok(json!({"b": {"d": 1}, "e": [null, {}]}))
        );
    }

    /// An optional struct is an object schema with its properties, no `anyOf` with `null`.
    #[test]
    fn an_optional_object_keeps_its_properties() {
        #[derive(Serialize, JsonSchema)]
        #[allow(dead_code)]
        struct Outer {
            hit: Option<Hit>,
            count: u32,
        }
        let schema = output_schema::<Outer>();
        assert_eq!(check_schema(&schema), Ok(()));
        let hit = &schema["properties"]["hit"];
        assert_eq!(hit["type"], json!("object"), "{hit}");
        assert_eq!(
            hit["properties"]["title"],
            json!({"type": "string"}),
            "{hit}"
        );
        assert!(hit.get("anyOf").is_none(), "{hit}");
    }

    #[test]
    fn a_value_that_is_not_an_object_is_refused() {
        assert_eq!(
            to_structured_content(&3),
            Err("serialized to a number rather than an object".to_owned())
        );
        assert!(to_structured_content(&json!({"a": 1})).is_ok());
    }
}
