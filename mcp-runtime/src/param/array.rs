//! String arrays: `Vec<String>`. Elements must be strings; they are trimmed and blanks dropped
//! (a client's `["a", ""]` means `["a"]`). Absent means empty unless `#[param(required)]`.

use serde_json::{Value, json};

use super::{JsonObject, Param, ParamError, ParamSpec, present, string::trim_blank, typed_schema};

impl Param for Vec<String> {
    fn schema(spec: &ParamSpec) -> JsonObject {
        let mut schema = typed_schema("array", spec);
        schema.insert("items".to_owned(), json!({"type": "string"}));
        schema
    }

    fn is_required(spec: &ParamSpec) -> bool {
        spec.required
    }

    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
        let refused = || ParamError::WrongType {
            name: spec.name,
            expected: "an array of strings",
        };
        match present(value) {
            None if spec.required => Err(ParamError::Required { name: spec.name }),
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => {
                let mut strings = Vec::with_capacity(items.len());
                for item in items {
                    let Value::String(text) = item else {
                        return Err(refused());
                    };
                    let text = if spec.raw { text } else { trim_blank(text) };
                    if !text.is_empty() {
                        strings.push(text.to_owned());
                    }
                }
                Ok(strings)
            }
            Some(_) => Err(refused()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: ParamSpec = ParamSpec::new("spaces", "Spaces to search.");

    #[test]
    fn elements_are_trimmed_and_blanks_dropped() {
        assert_eq!(
            Vec::<String>::parse(Some(&json!([" Main ", "", "  ", "Sandbox"])), &SPEC),
            Ok(vec!["Main".to_owned(), "Sandbox".to_owned()])
        );
        assert_eq!(Vec::<String>::parse(None, &SPEC), Ok(vec![]));
    }

    #[test]
    fn non_string_elements_and_non_arrays_are_refused() {
        for bad in [
            json!(["a", 1]),
            json!("a"),
            json!({"a": "b"}),
            json!([null]),
        ] {
            assert_eq!(
                Vec::<String>::parse(Some(&bad), &SPEC).map_err(|e| e.to_string()),
                Err("Error: 'spaces' must be an array of strings.".to_owned())
            );
        }
    }

    #[test]
    fn required_when_declared_so() {
        let required = ParamSpec {
            required: true,
            ..SPEC
        };
        assert_eq!(
            Vec::<String>::parse(None, &required),
            Err(ParamError::Required { name: "spaces" })
        );
        assert!(Vec::<String>::is_required(&required) && !Vec::<String>::is_required(&SPEC));
    }

    #[test]
    fn schema_is_an_array_of_strings() {
        assert_eq!(
            Value::Object(Vec::<String>::schema(&SPEC)),
            json!({"type": "array", "description": "Spaces to search.", "items": {"type": "string"}})
        );
    }
}
