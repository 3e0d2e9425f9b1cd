//! Argument generators built from a served schema's JSON, not from the macro's model: if the
//! schema advertises something the parser refuses, the values generated here expose it.
//!
//! Supports exactly the subset our schemas use (string with `minLength`/`pattern: \S`, `enum`,
//! `oneOf`/`anyOf`, integer and number with `minimum`/`maximum`, boolean, array, object with `properties`/
//! `required` or with `additionalProperties`), and panics on anything else, so a new construct in
//! a schema cannot be silently skipped.

use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::Union;
use serde_json::{Map, Value};

/// Characters generated strings are made of: ASCII, accents, CJK, and the punctuation of wiki
/// references. Blank characters are added around them where the schema allows.
const WORD: &str = "[A-Za-z0-9._:éü日本-]";

/// Values valid under `schema`.
pub(crate) fn valid_value(schema: &Value) -> BoxedStrategy<Value> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return select(values.clone()).boxed();
    }
    if let Some(Value::String(constant)) = schema.get("const") {
        return Just(Value::from(constant.as_str())).boxed();
    }
    for combinator in ["oneOf", "anyOf"] {
        if let Some(arms) = schema.get(combinator).and_then(Value::as_array) {
            return Union::new(arms.iter().map(valid_value)).boxed();
        }
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => string(schema),
        Some("integer") => {
            let min = schema
                .get("minimum")
                .and_then(Value::as_i64)
                .unwrap_or(i64::MIN);
            let max = schema
                .get("maximum")
                .and_then(Value::as_i64)
                .unwrap_or(i64::MAX);
            (min..=max).prop_map(Value::from).boxed()
        }
        Some("number") => {
            let min = schema
                .get("minimum")
                .and_then(Value::as_f64)
                .unwrap_or(-1e12);
            let max = schema
                .get("maximum")
                .and_then(Value::as_f64)
                .unwrap_or(1e12);
            (min..=max).prop_map(Value::from).boxed()
        }
        Some("boolean") => any::<bool>().prop_map(Value::from).boxed(),
        Some("array") => {
            let items = schema
                .get("items")
                .map_or_else(|| panic!("array without items: {schema}"), valid_value);
            prop::collection::vec(items, 0..4)
                .prop_map(Value::Array)
                .boxed()
        }
        Some("object") => object(schema),
        other => panic!("the generator does not know type {other:?} in {schema}"),
    }
}

fn string(schema: &Value) -> BoxedStrategy<Value> {
    let min_length = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0);
    let pattern = match schema.get("pattern").and_then(Value::as_str) {
        None if min_length == 0 => format!("[ \t]{{0,2}}{WORD}{{0,8}}[ \t]{{0,2}}"),
        // `\S`: at least one non-blank character, with blanks around it.
        None | Some(r"\S") => format!("[ \t]{{0,2}}{WORD}{{1,8}}[ \t]{{0,2}}"),
        Some(other) => panic!("the generator does not know pattern {other:?}"),
    };
    proptest::string::string_regex(&pattern)
        .unwrap_or_else(|e| panic!("{pattern}: {e}"))
        .prop_map(Value::from)
        .boxed()
}

fn object(schema: &Value) -> BoxedStrategy<Value> {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        // A map: any keys, values per `additionalProperties`.
        let values = schema
            .get("additionalProperties")
            .filter(|v| v.is_object())
            .map_or_else(
                || panic!("object without properties or value schema: {schema}"),
                valid_value,
            );
        return prop::collection::btree_map("[a-zA-Z_]{1,8}", values, 0..4)
            .prop_map(|map| Value::Object(map.into_iter().collect()))
            .boxed();
    };
    let required = required_names(schema);
    let members: Vec<BoxedStrategy<Option<(String, Value)>>> = properties
        .iter()
        .map(|(name, property)| {
            let name = name.clone();
            let value = valid_value(property);
            if required.contains(&name) {
                value.prop_map(move |v| Some((name.clone(), v))).boxed()
            } else {
                prop::option::of(value.prop_map(move |v| (name.clone(), v))).boxed()
            }
        })
        .collect();
    members
        .prop_map(|members| Value::Object(members.into_iter().flatten().collect::<Map<_, _>>()))
        .boxed()
}

/// The names in a schema's `required`.
pub(crate) fn required_names(schema: &Value) -> Vec<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Values of the wrong JSON type for `schema` (or outside its `enum`), each refused by a parser
/// that honours the schema. Strings that some parsers accept for convenience (`"3"` for an
/// integer, `"true"` for a boolean) are deliberately not among them.
pub(crate) fn wrong_values(schema: &Value) -> Vec<Value> {
    use serde_json::json;
    let mut wrong = match schema.get("type").and_then(Value::as_str) {
        Some("string") => vec![json!(3), json!(true), json!([]), json!({})],
        Some("integer") => vec![
            json!("three"),
            json!(1.5),
            json!(true),
            json!([]),
            json!({}),
        ],
        Some("number") => vec![
            json!("three"),
            json!("NaN"),
            json!(true),
            json!([]),
            json!({}),
        ],
        Some("boolean") => vec![json!(1), json!("maybe"), json!([]), json!({})],
        Some("array") => vec![json!("x"), json!(3), json!({}), json!(true)],
        Some("object") => vec![json!("x"), json!(3), json!([]), json!(true)],
        other => panic!("no wrong values known for type {other:?}"),
    };
    if schema.get("enum").is_some() {
        wrong.push(json!("not_an_accepted_value"));
    }
    if schema.pointer("/additionalProperties/type") == Some(&json!("string")) {
        wrong.push(json!({"key": 3}));
    }
    if schema.pointer("/items/type") == Some(&json!("string")) {
        wrong.push(json!(["ok", 3]));
    }
    wrong
}

/// Any JSON value, nested a little: for the "no input panics" property.
pub(crate) fn any_json() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(".{0,6}", inner, 0..4)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
    .boxed()
}
