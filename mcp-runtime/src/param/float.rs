//! Floats: `f64` (required unless it has a `default`) and `Option<f64>`, with `#[param(default =
//! x, range = a..=b)]` (or `range = a..`, a minimum alone) and `#[param(clamp)]`.
//!
//! Accepted: JSON numbers and numeric strings (`"0.5"`, as some clients send), finite only:
//! `NaN` and the infinities are refused, as a number JSON cannot carry would be. The schema says
//! `number`, with `minimum`/`maximum` from `range`.

use serde_json::Value;

use super::number::Number;
use super::{JsonObject, Param, ParamError, ParamSpec, present, string::trim_blank, typed_schema};

fn not_a_number(spec: &ParamSpec) -> ParamError {
    ParamError::WrongType {
        name: spec.name,
        expected: "a finite number",
    }
}

/// The argument as a finite `f64`, range-checked (or clamped); `None` when absent, `null` or
/// blank.
fn parse_float(value: Option<&Value>, spec: &ParamSpec) -> Result<Option<f64>, ParamError> {
    let got = match present(value) {
        None => return Ok(None),
        Some(Value::Number(number)) => number.as_f64(),
        Some(Value::String(text)) => {
            let text = trim_blank(text);
            if text.is_empty() {
                return Ok(None);
            }
            text.parse::<f64>().ok()
        }
        Some(_) => None,
    };
    let got = got
        .filter(|value| value.is_finite())
        .ok_or_else(|| not_a_number(spec))?;
    let Some((min, max)) = spec.range else {
        return Ok(Some(got));
    };
    let (low, high) = (min.as_f64(), max.map_or(f64::MAX, Number::as_f64));
    if (low..=high).contains(&got) {
        Ok(Some(got))
    } else if spec.clamp && got > high {
        Ok(Some(high))
    } else if let Some(max) = max {
        Err(ParamError::OutOfRange {
            name: spec.name,
            min,
            max,
            got: Number::Float(got),
        })
    } else {
        Err(ParamError::Invalid {
            name: spec.name,
            message: format!("must be {min} or more (got {got})."),
        })
    }
}

fn float_schema(spec: &ParamSpec) -> JsonObject {
    let mut schema = typed_schema("number", spec);
    if let Some((min, max)) = spec.range {
        schema.insert("minimum".to_owned(), min.to_json());
        if let Some(max) = max {
            schema.insert("maximum".to_owned(), max.to_json());
        }
    }
    if let Some(default) = spec.default {
        schema.insert("default".to_owned(), default.to_json());
    }
    schema
}

impl Param for f64 {
    fn schema(spec: &ParamSpec) -> JsonObject {
        float_schema(spec)
    }

    /// Required exactly when there is no `default` to fall back on.
    fn is_required(spec: &ParamSpec) -> bool {
        spec.default.is_none()
    }

    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
        parse_float(value, spec)?
            .or_else(|| spec.default.map(Number::as_f64))
            .ok_or(ParamError::Required { name: spec.name })
    }
}

impl Param for Option<f64> {
    fn schema(spec: &ParamSpec) -> JsonObject {
        float_schema(spec)
    }

    fn is_required(_: &ParamSpec) -> bool {
        false
    }

    fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
        Ok(parse_float(value, spec)?.or_else(|| spec.default.map(Number::as_f64)))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const RATIO: ParamSpec = ParamSpec {
        default: Some(Number::Float(0.5)),
        range: Some((Number::Int(0), Some(Number::Int(1)))),
        ..ParamSpec::new("ratio", "A share.")
    };
    const BARE: ParamSpec = ParamSpec::new("weight", "A weight.");

    fn parse(value: Value, spec: &ParamSpec) -> Result<f64, String> {
        f64::parse(Some(&value), spec).map_err(|e| e.to_string())
    }

    #[test]
    fn accepts_numbers_and_numeric_strings() {
        assert_eq!(parse(json!(0.25), &RATIO), Ok(0.25));
        assert_eq!(parse(json!(1), &RATIO), Ok(1.0));
        assert_eq!(parse(json!(" 0.75 "), &RATIO), Ok(0.75));
        assert_eq!(parse(json!("-1e3"), &BARE), Ok(-1000.0));
    }

    #[test]
    fn refuses_what_is_not_a_finite_number() {
        for bad in [
            json!("NaN"),
            json!("inf"),
            json!("-infinity"),
            json!("1e999"),
            json!("ten"),
            json!(true),
            json!([1]),
        ] {
            assert_eq!(
                parse(bad, &BARE),
                Err("Error: 'weight' must be a finite number.".to_owned())
            );
        }
    }

    #[test]
    fn absent_falls_back_to_the_default_or_is_required() {
        assert_eq!(f64::parse(None, &RATIO), Ok(0.5));
        assert_eq!(f64::parse(Some(&json!(" ")), &RATIO), Ok(0.5));
        assert_eq!(
            f64::parse(None, &BARE),
            Err(ParamError::Required { name: "weight" })
        );
        assert!(f64::is_required(&BARE) && !f64::is_required(&RATIO));
        assert_eq!(Option::<f64>::parse(None, &BARE), Ok(None));
        assert_eq!(Option::<f64>::parse(None, &RATIO), Ok(Some(0.5)));
    }

    #[test]
    fn out_of_range_is_refused_unless_clamped() {
        assert_eq!(
            parse(json!(1.5), &RATIO),
            Err("Error: 'ratio' must be between 0 and 1 (got 1.5).".to_owned())
        );
        let clamped = ParamSpec {
            clamp: true,
            ..RATIO
        };
        assert_eq!(parse(json!(1.5), &clamped), Ok(1.0));
        assert!(
            parse(json!(-3), &clamped).is_err(),
            "below the minimum is refused, clamped or not"
        );
    }

    #[test]
    fn schema_says_number_with_bounds_and_default() {
        assert_eq!(
            Value::Object(f64::schema(&RATIO)),
            json!({"type": "number", "description": "A share.", "minimum": 0, "maximum": 1, "default": 0.5})
        );
        assert_eq!(
            Value::Object(Option::<f64>::schema(&BARE)),
            json!({"type": "number", "description": "A weight."})
        );
    }

    #[test]
    fn a_minimum_alone_bounds_one_side() {
        let positive = ParamSpec {
            range: Some((Number::Float(0.5), None)),
            ..BARE
        };
        assert_eq!(
            serde_json::Value::Object(f64::schema(&positive)),
            json!({"type": "number", "description": "A weight.", "minimum": 0.5})
        );
        assert_eq!(parse(json!(1e300), &positive), Ok(1e300));
        assert_eq!(
            parse(json!(0.25), &positive),
            Err("Error: 'weight' must be 0.5 or more (got 0.25).".to_owned())
        );
        let clamped = ParamSpec {
            clamp: true,
            ..positive
        };
        assert_eq!(
            parse(json!(-3), &clamped),
            Err("Error: 'weight' must be 0.5 or more (got -3).".to_owned())
        );
    }
}
