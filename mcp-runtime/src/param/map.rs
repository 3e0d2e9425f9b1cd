//! String maps: `BTreeMap<String, String>`, e.g. an object's field values. Values must be JSON
//! strings and are kept raw (a value may legitimately be blank or padded); a number or boolean is
//! refused with a message saying to quote it, rather than silently stringified.
//! Optional (absent = empty) unless `#[param(required)]`.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{JsonObject, Param, ParamError, ParamSpec, present, typed_schema};

impl Param for BTreeMap<String, String> {
    fn schema(spec: &ParamSpec) -> JsonObject {
        let mut schema = typed_schema("object", spec);
        schema.insert("additionalProperties".to_owned(), json!({"type": "string"}));
        schema
    }

    fn is_required(spec: &ParamSpec) -> bool {
        spec.required
    }

    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
        let refused = || ParamError::Invalid {
            name: spec.name,
            message: "must be an object whose values are all strings; quote numbers and \
                      booleans, e.g. {\"size\": \"3\", \"visible\": \"true\"}."
                .to_owned(),
        };
        match present(value) {
            None if spec.required => Err(ParamError::Required { name: spec.name }),
            None => Ok(BTreeMap::new()),
            Some(Value::Object(entries)) => entries
                .iter()
                .map(|(key, value)| match value {
                    Value::String(text) => Ok((key.clone(), text.clone())),
                    _ => Err(refused()),
                })
                .collect(),
            Some(_) => Err(refused()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: ParamSpec = ParamSpec::new("fields", "Field values.");

    #[test]
    fn values_are_kept_raw() {
        let parsed = BTreeMap::<String, String>::parse(Some(&json!({"b": " x ", "a": ""})), &SPEC);
        assert_eq!(
            parsed,
            Ok(BTreeMap::from([
                ("a".to_owned(), String::new()),
                ("b".to_owned(), " x ".to_owned())
            ]))
        );
    }

    #[test]
    fn non_string_values_are_refused_with_the_quoting_advice() {
        for bad in [
            json!({"size": 3}),
            json!({"ok": true}),
            json!(["a"]),
            json!("a=b"),
        ] {
            let message = BTreeMap::<String, String>::parse(Some(&bad), &SPEC)
                .map_err(|e| e.to_string())
                .unwrap_err();
            assert!(message.starts_with(
                "Error: 'fields' must be an object whose values are all strings; quote"
            ));
        }
    }

    #[test]
    fn optional_unless_required() {
        assert_eq!(
            BTreeMap::<String, String>::parse(None, &SPEC),
            Ok(BTreeMap::new())
        );
        let required = ParamSpec {
            required: true,
            ..SPEC
        };
        assert_eq!(
            BTreeMap::<String, String>::parse(Some(&json!(null)), &required),
            Err(ParamError::Required { name: "fields" })
        );
        assert!(BTreeMap::<String, String>::is_required(&required));
        assert!(!BTreeMap::<String, String>::is_required(&SPEC));
    }

    #[test]
    fn schema_is_an_object_of_strings() {
        assert_eq!(
            Value::Object(BTreeMap::<String, String>::schema(&SPEC)),
            json!({"type": "object", "description": "Field values.", "additionalProperties": {"type": "string"}})
        );
    }
}
