//! Booleans: `bool` (absent = false) and `Option<bool>` (the tri-state: absent stays `None`).
//!
//! Accepted: JSON `true`/`false`, and the strings `"true"`/`"false"` in any case (some clients
//! stringify every argument); anything else is refused rather than guessed.

use serde_json::Value;

use super::{JsonObject, Param, ParamError, ParamSpec, present, string::trim_blank, typed_schema};

fn parse_bool(value: Option<&Value>, spec: &ParamSpec) -> Result<Option<bool>, ParamError> {
    let refused = || ParamError::WrongType {
        name: spec.name,
        expected: "a boolean",
    };
    match present(value) {
        None => Ok(None),
        Some(Value::Bool(flag)) => Ok(Some(*flag)),
        Some(Value::String(text)) => {
            let text = trim_blank(text);
            if text.eq_ignore_ascii_case("true") {
                Ok(Some(true))
            } else if text.eq_ignore_ascii_case("false") {
                Ok(Some(false))
            } else {
                Err(refused())
            }
        }
        Some(_) => Err(refused()),
    }
}

impl Param for bool {
    fn schema(spec: &ParamSpec) -> JsonObject {
        let mut schema = typed_schema("boolean", spec);
        schema.insert("default".to_owned(), false.into());
        schema
    }

    fn is_required(_: &ParamSpec) -> bool {
        false
    }

    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
        Ok(parse_bool(value, spec)?.unwrap_or(false))
    }
}

impl Param for Option<bool> {
    fn schema(spec: &ParamSpec) -> JsonObject {
        typed_schema("boolean", spec)
    }

    fn is_required(_: &ParamSpec) -> bool {
        false
    }

    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
        parse_bool(value, spec)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const SPEC: ParamSpec = ParamSpec::new("showHidden", "Include hidden pages.");

    #[test]
    fn accepts_json_booleans_and_their_strings_in_any_case() {
        assert_eq!(bool::parse(Some(&json!(true)), &SPEC), Ok(true));
        assert_eq!(bool::parse(Some(&json!("TRUE")), &SPEC), Ok(true));
        assert_eq!(bool::parse(Some(&json!(" False ")), &SPEC), Ok(false));
    }

    #[test]
    fn refuses_anything_else() {
        for bad in [json!(1), json!("yes"), json!(""), json!([true]), json!({})] {
            assert_eq!(
                bool::parse(Some(&bad), &SPEC).map_err(|e| e.to_string()),
                Err("Error: 'showHidden' must be a boolean.".to_owned())
            );
        }
    }

    #[test]
    fn absent_is_false_or_none() {
        assert_eq!(bool::parse(None, &SPEC), Ok(false));
        assert_eq!(bool::parse(Some(&json!(null)), &SPEC), Ok(false));
        assert_eq!(Option::<bool>::parse(None, &SPEC), Ok(None));
        assert_eq!(
            Option::<bool>::parse(Some(&json!(false)), &SPEC),
            Ok(Some(false))
        );
    }

    #[test]
    fn schema_is_an_optional_boolean() {
        assert_eq!(
            serde_json::Value::Object(bool::schema(&SPEC)),
            json!({"type": "boolean", "description": "Include hidden pages.", "default": false})
        );
        assert!(!bool::is_required(&SPEC) && !Option::<bool>::is_required(&SPEC));
    }
}
