//! Integers: `i64` (required unless it has a `default`) and `Option<i64>`, with `#[param(default
//! = N, range = a..=b)]` and `#[param(clamp)]`.
//!
//! Accepted: integral JSON numbers (`3`, `3.0`) and numeric strings (`"3"`, as some clients send);
//! refused: fractions, other types, and values outside `range` unless `clamp`. The schema
//! advertises `minimum`/`maximum` even when clamping, so a well-behaved client stays in range.

use serde_json::{Number, Value};

use super::{JsonObject, Param, ParamError, ParamSpec, present, string::trim_blank, typed_schema};

/// An integer argument as sent: within `i64`, or beyond it on one side.
enum Integral {
    Exact(i64),
    TooLow,
    TooHigh,
}

fn not_an_integer(spec: &ParamSpec) -> ParamError {
    ParamError::WrongType {
        name: spec.name,
        expected: "an integer",
    }
}

fn from_number(number: &Number, spec: &ParamSpec) -> Result<Integral, ParamError> {
    if let Some(exact) = number.as_i64() {
        return Ok(Integral::Exact(exact));
    }
    if number.is_u64() {
        return Ok(Integral::TooHigh);
    }
    let float = number.as_f64().unwrap_or(f64::NAN);
    if !float.is_finite() || float.fract() != 0.0 {
        return Err(not_an_integer(spec));
    }
    // `i64::MAX as f64` rounds up to 2^63, itself out of range: compare strictly below it.
    if float >= -(2f64.powi(63)) && float < 2f64.powi(63) {
        #[allow(clippy::cast_possible_truncation)]
        Ok(Integral::Exact(float as i64))
    } else if float < 0.0 {
        Ok(Integral::TooLow)
    } else {
        Ok(Integral::TooHigh)
    }
}

fn from_text(text: &str, spec: &ParamSpec) -> Result<Option<Integral>, ParamError> {
    let text = trim_blank(text);
    if text.is_empty() {
        return Ok(None);
    }
    if let Ok(exact) = text.parse::<i64>() {
        return Ok(Some(Integral::Exact(exact)));
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(Some(if text.starts_with('-') {
            Integral::TooLow
        } else {
            Integral::TooHigh
        }));
    }
    Err(not_an_integer(spec))
}

/// The argument as an integer, range-checked (or clamped); `None` when absent, `null` or blank.
fn parse_integer(value: Option<&Value>, spec: &ParamSpec) -> Result<Option<i64>, ParamError> {
    let integral = match present(value) {
        None => return Ok(None),
        Some(Value::Number(number)) => from_number(number, spec)?,
        Some(Value::String(text)) => match from_text(text, spec)? {
            None => return Ok(None),
            Some(integral) => integral,
        },
        Some(_) => return Err(not_an_integer(spec)),
    };
    let (min, max) = spec.range.unwrap_or((i64::MIN, i64::MAX));
    let out_of_range = |got: Option<i64>| match got {
        Some(got) => ParamError::OutOfRange {
            name: spec.name,
            min,
            max,
            got,
        },
        None => ParamError::Invalid {
            name: spec.name,
            message: format!("must be an integer between {min} and {max}."),
        },
    };
    let clamp = spec.clamp && spec.range.is_some();
    match integral {
        Integral::Exact(got) if (min..=max).contains(&got) => Ok(Some(got)),
        Integral::Exact(got) if clamp => Ok(Some(got.clamp(min, max))),
        Integral::Exact(got) => Err(out_of_range(Some(got))),
        Integral::TooLow if clamp => Ok(Some(min)),
        Integral::TooHigh if clamp => Ok(Some(max)),
        Integral::TooLow | Integral::TooHigh => Err(out_of_range(None)),
    }
}

fn integer_schema(spec: &ParamSpec) -> JsonObject {
    let mut schema = typed_schema("integer", spec);
    if let Some((min, max)) = spec.range {
        schema.insert("minimum".to_owned(), min.into());
        schema.insert("maximum".to_owned(), max.into());
    }
    if let Some(default) = spec.default {
        schema.insert("default".to_owned(), default.into());
    }
    schema
}

impl Param for i64 {
    fn schema(spec: &ParamSpec) -> JsonObject {
        integer_schema(spec)
    }

    /// Required exactly when there is no `default` to fall back on.
    fn is_required(spec: &ParamSpec) -> bool {
        spec.default.is_none()
    }

    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
        parse_integer(value, spec)?
            .or(spec.default)
            .ok_or(ParamError::Required { name: spec.name })
    }
}

impl Param for Option<i64> {
    fn schema(spec: &ParamSpec) -> JsonObject {
        integer_schema(spec)
    }

    fn is_required(_: &ParamSpec) -> bool {
        false
    }

    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
        Ok(parse_integer(value, spec)?.or(spec.default))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const LIMIT: ParamSpec = ParamSpec {
        default: Some(20),
        range: Some((1, 100)),
        ..ParamSpec::new("limit", "Rows per page.")
    };
    const CLAMPED: ParamSpec = ParamSpec {
        clamp: true,
        ..LIMIT
    };
    const BARE: ParamSpec = ParamSpec::new("offset", "First line.");

    fn parse(value: serde_json::Value, spec: &ParamSpec) -> Result<i64, String> {
        i64::parse(Some(&value), spec).map_err(|e| e.to_string())
    }

    #[test]
    fn accepts_integral_numbers_and_numeric_strings() {
        assert_eq!(parse(json!(7), &LIMIT), Ok(7));
        assert_eq!(parse(json!(7.0), &LIMIT), Ok(7));
        assert_eq!(parse(json!(" 42 "), &LIMIT), Ok(42));
        assert_eq!(parse(json!("-5"), &BARE), Ok(-5));
        assert_eq!(parse(json!(i64::MIN), &BARE), Ok(i64::MIN));
    }

    #[test]
    fn refuses_fractions_and_other_types() {
        for bad in [
            json!(2.5),
            json!("2.5"),
            json!("ten"),
            json!(true),
            json!([1]),
            json!({}),
        ] {
            assert_eq!(
                parse(bad, &LIMIT),
                Err("Error: 'limit' must be an integer.".to_owned())
            );
        }
    }

    #[test]
    fn absent_falls_back_to_the_default_or_is_required() {
        assert_eq!(i64::parse(None, &LIMIT), Ok(20));
        assert_eq!(i64::parse(Some(&json!(null)), &LIMIT), Ok(20));
        assert_eq!(i64::parse(Some(&json!(" ")), &LIMIT), Ok(20));
        assert_eq!(
            i64::parse(None, &BARE),
            Err(ParamError::Required { name: "offset" })
        );
        assert!(i64::is_required(&BARE) && !i64::is_required(&LIMIT));
        assert_eq!(Option::<i64>::parse(None, &BARE), Ok(None));
        assert_eq!(Option::<i64>::parse(None, &LIMIT), Ok(Some(20)));
        assert_eq!(Option::<i64>::parse(Some(&json!(3)), &BARE), Ok(Some(3)));
    }

    #[test]
    fn out_of_range_is_refused_unless_clamped() {
        assert_eq!(
            parse(json!(500), &LIMIT),
            Err("Error: 'limit' must be between 1 and 100 (got 500).".to_owned())
        );
        assert_eq!(parse(json!(500), &CLAMPED), Ok(100));
        assert_eq!(parse(json!(-3), &CLAMPED), Ok(1));
        assert_eq!(parse(json!(1e30), &CLAMPED), Ok(100));
        assert_eq!(parse(json!("-99999999999999999999"), &CLAMPED), Ok(1));
        assert_eq!(
            parse(json!(u64::MAX), &LIMIT),
            Err("Error: 'limit' must be an integer between 1 and 100.".to_owned())
        );
        assert_eq!(
            parse(json!("99999999999999999999"), &BARE),
            Err(format!(
                "Error: 'offset' must be an integer between {} and {}.",
                i64::MIN,
                i64::MAX
            ))
        );
    }

    #[test]
    fn schema_advertises_bounds_and_default() {
        assert_eq!(
            serde_json::Value::Object(i64::schema(&LIMIT)),
            json!({"type": "integer", "description": "Rows per page.", "minimum": 1, "maximum": 100, "default": 20})
        );
        assert_eq!(
            serde_json::Value::Object(Option::<i64>::schema(&BARE)),
            json!({"type": "integer", "description": "First line."})
        );
    }
}
