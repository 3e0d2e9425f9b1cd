//! Strings: `String` (required, non-blank), `#[param(raw)] String` (kept as sent),
//! `Option<String>` (blank = absent) and `Keep<String>` (empty kept distinct from absent).
//!
//! Blank means "only whitespace" as ECMA-262 regular expressions define `\s`, the dialect of the
//! advertised `pattern`: the parser refuses exactly what `{"pattern": "\\S"}` refuses (the empty
//! string included: it holds no non-blank character, so no `minLength` is needed), so a client
//! validating against the schema and our parser agree.

use serde_json::Value;

use super::{JsonObject, Keep, Param, ParamError, ParamSpec, present, typed_schema};

/// The advertised pattern of a non-blank string: at least one non-whitespace character.
pub const NON_BLANK_PATTERN: &str = r"\S";

/// Whitespace as ECMA-262 `\s` defines it: Unicode `White_Space` except U+0085 (NEL), plus
/// U+FEFF (BOM). Trimming with anything else would let the schema and the parser disagree.
pub fn is_blank_char(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{FEFF}'
}

/// `text` without leading and trailing [blank characters](is_blank_char).
pub fn trim_blank(text: &str) -> &str {
    text.trim_matches(is_blank_char)
}

/// The string argument, or `None` when absent or `null`; any other JSON type is refused.
fn string_arg<'v>(
    value: Option<&'v Value>,
    spec: &ParamSpec,
) -> Result<Option<&'v str>, ParamError> {
    match present(value) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(ParamError::WrongType {
            name: spec.name,
            expected: "a string",
        }),
    }
}

/// The argument trimmed (unless raw), or `None` when absent, `null`, or blank (unless raw).
fn optional_text(value: Option<&Value>, spec: &ParamSpec) -> Result<Option<String>, ParamError> {
    Ok(string_arg(value, spec)?.and_then(|text| {
        if spec.raw {
            Some(text.to_owned())
        } else {
            let trimmed = trim_blank(text);
            (!trimmed.is_empty()).then(|| trimmed.to_owned())
        }
    }))
}

impl Param for String {
    fn schema(spec: &ParamSpec) -> JsonObject {
        let mut schema = typed_schema("string", spec);
        if !spec.raw {
            schema.insert("pattern".to_owned(), NON_BLANK_PATTERN.into());
        }
        schema
    }

    fn is_required(_: &ParamSpec) -> bool {
        true
    }

    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
        optional_text(value, spec)?.ok_or(ParamError::Required { name: spec.name })
    }
}

impl Param for Option<String> {
    fn schema(spec: &ParamSpec) -> JsonObject {
        typed_schema("string", spec)
    }

    fn is_required(_: &ParamSpec) -> bool {
        false
    }

    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
        optional_text(value, spec)
    }
}

impl Param for Keep<String> {
    fn schema(spec: &ParamSpec) -> JsonObject {
        typed_schema("string", spec)
    }

    fn is_required(_: &ParamSpec) -> bool {
        false
    }

    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
        Ok(string_arg(value, spec)?
            .map(|text| if spec.raw { text } else { trim_blank(text) }.to_owned())
            .into())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const SPEC: ParamSpec = ParamSpec::new("reference", "The document.");
    const RAW: ParamSpec = ParamSpec {
        raw: true,
        ..ParamSpec::new("content", "The content.")
    };

    #[test]
    fn required_string_is_trimmed_and_refuses_blank_absent_and_other_types() {
        assert_eq!(
            String::parse(Some(&json!("  A.B \n")), &SPEC),
            Ok("A.B".to_owned())
        );
        for missing in [
            None,
            Some(json!(null)),
            Some(json!("  \t")),
            Some(json!("\u{FEFF}")),
        ] {
            assert_eq!(
                String::parse(missing.as_ref(), &SPEC),
                Err(ParamError::Required { name: "reference" })
            );
        }
        let refused = String::parse(Some(&json!(3)), &SPEC);
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err("Error: 'reference' must be a string.".to_owned())
        );
    }

    #[test]
    fn required_string_advertises_what_it_refuses() {
        assert_eq!(
            serde_json::Value::Object(String::schema(&SPEC)),
            json!({"type": "string", "description": "The document.", "pattern": "\\S"})
        );
        assert!(String::is_required(&SPEC));
    }

    #[test]
    fn nel_is_content_as_in_the_advertised_pattern() {
        assert_eq!(
            String::parse(Some(&json!("\u{85}")), &SPEC),
            Ok("\u{85}".to_owned())
        );
    }

    #[test]
    fn raw_string_is_kept_as_sent_but_still_required() {
        assert_eq!(
            String::parse(Some(&json!(" a\r\n")), &RAW),
            Ok(" a\r\n".to_owned())
        );
        assert_eq!(String::parse(Some(&json!("")), &RAW), Ok(String::new()));
        assert_eq!(
            String::parse(None, &RAW),
            Err(ParamError::Required { name: "content" })
        );
        assert_eq!(
            serde_json::Value::Object(String::schema(&RAW)),
            json!({"type": "string", "description": "The content."})
        );
    }

    #[test]
    fn optional_string_treats_blank_as_absent() {
        assert_eq!(
            Option::<String>::parse(Some(&json!(" fr ")), &SPEC),
            Ok(Some("fr".to_owned()))
        );
        assert_eq!(
            Option::<String>::parse(Some(&json!("   ")), &SPEC),
            Ok(None)
        );
        assert_eq!(Option::<String>::parse(None, &SPEC), Ok(None));
        assert!(Option::<String>::parse(Some(&json!(true)), &SPEC).is_err());
        assert!(!Option::<String>::is_required(&SPEC));
    }

    #[test]
    fn keep_string_keeps_empty_distinct_from_absent() {
        assert_eq!(Keep::<String>::parse(None, &SPEC), Ok(Keep::Absent));
        assert_eq!(
            Keep::<String>::parse(Some(&json!(null)), &SPEC),
            Ok(Keep::Absent)
        );
        assert_eq!(
            Keep::<String>::parse(Some(&json!("  ")), &SPEC),
            Ok(Keep::Present(String::new()))
        );
        assert_eq!(
            Keep::<String>::parse(Some(&json!(" x ")), &SPEC)
                .map(|k| k.as_deref().map(str::to_owned)),
            Ok(Some("x".to_owned()))
        );
        assert!(Keep::<String>::parse(Some(&json!([])), &SPEC).is_err());
    }
}
