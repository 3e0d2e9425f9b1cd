//! Integers: `i64`, `u32`, `u64`, `usize` (required unless they have a `default`) and their
//! `Option`s, with `#[param(default = N, range = a..=b)]` (or `range = a..`, a minimum alone) and
//! `#[param(clamp)]`.
//!
//! Accepted: integral JSON numbers (`3`, `3.0`) and numeric strings (`"3"`, as some clients send);
//! refused: fractions, other types, and values outside `range` (or outside what the type holds),
//! except that `clamp` lowers a value above the maximum to it (asking for more than a page
//! holds is no mistake, while a limit of 0 asks for nothing and is refused). The schema advertises `minimum`/`maximum` even when clamping, so a
//! well-behaved client stays in range, and without a `range` the type's own bounds a client
//! could reach (`minimum: 0` for the unsigned types, `u32`'s maximum), never a `format` keyword
//! (clients that do not know `uint32` would reject the tool).

use serde_json::{Number as JsonNumber, Value};

use super::number::{Number, NumberKind};
use super::{JsonObject, Param, ParamError, ParamSpec, present, string::trim_blank, typed_schema};

/// An integer argument as sent: within `i128`, or beyond it on one side.
enum Integral {
    Exact(i128),
    TooLow,
    TooHigh,
}

fn not_an_integer(spec: &ParamSpec) -> ParamError {
    ParamError::WrongType {
        name: spec.name,
        expected: "an integer",
    }
}

fn from_number(number: &JsonNumber, spec: &ParamSpec) -> Result<Integral, ParamError> {
    if let Some(exact) = number.as_i64() {
        return Ok(Integral::Exact(exact.into()));
    }
    if let Some(exact) = number.as_u64() {
        return Ok(Integral::Exact(exact.into()));
    }
    let float = number.as_f64().unwrap_or(f64::NAN);
    if !float.is_finite() || float.fract() != 0.0 {
        return Err(not_an_integer(spec));
    }
    // Beyond every integer type's bounds either way: only the side matters.
    if float < -(2f64.powi(100)) {
        Ok(Integral::TooLow)
    } else if float > 2f64.powi(100) {
        Ok(Integral::TooHigh)
    } else {
        #[allow(clippy::cast_possible_truncation)]
        Ok(Integral::Exact(float as i128))
    }
}

fn from_text(text: &str, spec: &ParamSpec) -> Result<Option<Integral>, ParamError> {
    let text = trim_blank(text);
    if text.is_empty() {
        return Ok(None);
    }
    if let Ok(exact) = text.parse::<i128>() {
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

/// The bounds a value must lie in: the declared `range` within what the type holds.
fn bounds(spec: &ParamSpec, kind: NumberKind) -> (i128, i128) {
    match spec.range {
        Some((min, max)) => (
            min.as_int().unwrap_or(kind.min).max(kind.min),
            max.and_then(Number::as_int)
                .unwrap_or(kind.max)
                .min(kind.max),
        ),
        None => (kind.min, kind.max),
    }
}

/// The bounds the schema advertises: the declared ones, else the type's own where a client
/// could send past them (an unsigned type's 0, `u32`'s maximum; `i64`'s and `u64`'s are beyond
/// what clients send as integers).
fn advertised(spec: &ParamSpec, kind: NumberKind) -> (Option<Number>, Option<Number>) {
    let (min, max) = match spec.range {
        Some((min, max)) => (Some(min), max),
        None => (None, None),
    };
    let own_min = (kind.min == 0).then_some(Number::Int(0));
    let own_max = (kind.max <= i128::from(u32::MAX)).then_some(Number::Int(kind.max));
    (min.or(own_min), max.or(own_max))
}

/// The argument as an integer the type holds, range-checked (or clamped); `None` when absent,
/// `null` or blank.
fn parse_integer(
    value: Option<&Value>,
    spec: &ParamSpec,
    kind: NumberKind,
) -> Result<Option<i128>, ParamError> {
    let integral = match present(value) {
        None => return Ok(None),
        Some(Value::Number(number)) => from_number(number, spec)?,
        Some(Value::String(text)) => match from_text(text, spec)? {
            None => return Ok(None),
            Some(integral) => integral,
        },
        Some(_) => return Err(not_an_integer(spec)),
    };
    let (min, max) = bounds(spec, kind);
    // An upper bound the schema does not advertise (a minimum alone, or an unsigned type's own
    // beyond `u32`) is not worth reading: "must be 1 or more" says all an agent can act on.
    let only_minimum = matches!(advertised(spec, kind), (Some(_), None));
    let out_of_range = |got: Option<i128>| match got {
        Some(got) if only_minimum && got < min => ParamError::Invalid {
            name: spec.name,
            message: format!("must be {min} or more (got {got})."),
        },
        Some(got) => ParamError::OutOfRange {
            name: spec.name,
            min: Number::Int(min),
            max: Number::Int(max),
            got: Number::Int(got),
        },
        None if only_minimum => ParamError::Invalid {
            name: spec.name,
            message: format!("must be an integer of {min} or more."),
        },
        None => ParamError::Invalid {
            name: spec.name,
            message: format!("must be an integer between {min} and {max}."),
        },
    };
    let clamp = spec.clamp && spec.range.is_some();
    match integral {
        Integral::Exact(got) if (min..=max).contains(&got) => Ok(Some(got)),
        Integral::Exact(got) if clamp && got > max => Ok(Some(max)),
        Integral::Exact(got) => Err(out_of_range(Some(got))),
        Integral::TooHigh if clamp => Ok(Some(max)),
        Integral::TooLow | Integral::TooHigh => Err(out_of_range(None)),
    }
}

/// The declared default (the compile-time check made sure the type holds it).
fn default_of(spec: &ParamSpec) -> Option<i128> {
    spec.default.and_then(Number::as_int)
}

fn integer_schema(spec: &ParamSpec, kind: NumberKind) -> JsonObject {
    let mut schema = typed_schema("integer", spec);
    let (min, max) = advertised(spec, kind);
    if let Some(min) = min {
        schema.insert("minimum".to_owned(), min.to_json());
    }
    if let Some(max) = max {
        schema.insert("maximum".to_owned(), max.to_json());
    }
    if let Some(default) = spec.default {
        schema.insert("default".to_owned(), default.to_json());
    }
    schema
}

/// `Param` for an integer type and its `Option`; `$kind` is what the type holds.
macro_rules! integer_param {
    ($($ty:ty),*) => {$(
        impl Param for $ty {
            fn schema(spec: &ParamSpec) -> JsonObject {
                integer_schema(spec, <$ty as super::keys::Numeric>::KIND)
            }

            /// Required exactly when there is no `default` to fall back on.
            fn is_required(spec: &ParamSpec) -> bool {
                spec.default.is_none()
            }

            fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
                let kind = <$ty as super::keys::Numeric>::KIND;
                parse_integer(value, spec, kind)?
                    .or_else(|| default_of(spec))
                    .ok_or(ParamError::Required { name: spec.name })
                    .and_then(|value| {
                        <$ty>::try_from(value).map_err(|_| out_of_type(spec, kind))
                    })
            }
        }

        impl Param for Option<$ty> {
            fn schema(spec: &ParamSpec) -> JsonObject {
                integer_schema(spec, <$ty as super::keys::Numeric>::KIND)
            }

            fn is_required(_: &ParamSpec) -> bool {
                false
            }

            fn parse(value: Option<&Value>, spec: &ParamSpec) -> Result<Self, ParamError> {
                let kind = <$ty as super::keys::Numeric>::KIND;
                parse_integer(value, spec, kind)?
                    .or_else(|| default_of(spec))
                    .map(|value| <$ty>::try_from(value).map_err(|_| out_of_type(spec, kind)))
                    .transpose()
            }
        }
    )*};
}

integer_param!(i64, u32, u64, usize);

/// A value beyond the type: only a declared default could be one, and the compile-time check
/// refuses those; answered rather than unwrapped all the same.
fn out_of_type(spec: &ParamSpec, kind: NumberKind) -> ParamError {
    ParamError::Invalid {
        name: spec.name,
        message: format!("must be an integer between {} and {}.", kind.min, kind.max),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const LIMIT: ParamSpec = ParamSpec {
        default: Some(Number::Int(20)),
        range: Some((Number::Int(1), Some(Number::Int(100)))),
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
        assert_eq!(parse(json!(1e30), &CLAMPED), Ok(100));
        // Below the minimum is refused, clamped or not: a limit of 0 asks for nothing.
        assert_eq!(
            parse(json!(0), &CLAMPED),
            Err("Error: 'limit' must be between 1 and 100 (got 0).".to_owned())
        );
        assert_eq!(
            parse(json!("-99999999999999999999"), &CLAMPED),
            Err("Error: 'limit' must be between 1 and 100 (got -99999999999999999999).".to_owned())
        );
        assert_eq!(
            parse(json!(u64::MAX), &LIMIT),
            Err("Error: 'limit' must be between 1 and 100 (got 18446744073709551615).".to_owned())
        );
        assert_eq!(
            parse(json!(1e300), &LIMIT),
            Err("Error: 'limit' must be an integer between 1 and 100.".to_owned())
        );
        assert_eq!(
            parse(json!("99999999999999999999"), &BARE),
            Err(format!(
                "Error: 'offset' must be between {} and {} (got 99999999999999999999).",
                i64::MIN,
                i64::MAX
            ))
        );
        assert_eq!(
            parse(json!("-999999999999999999999999999999999999999999"), &BARE),
            Err(format!(
                "Error: 'offset' must be an integer between {} and {}.",
                i64::MIN,
                i64::MAX
            ))
        );
    }

    #[test]
    fn unsigned_types_hold_what_they_hold() {
        assert_eq!(u32::parse(Some(&json!("7")), &BARE), Ok(7));
        assert_eq!(
            u32::parse(Some(&json!(-1)), &BARE).map_err(|e| e.to_string()),
            Err("Error: 'offset' must be between 0 and 4294967295 (got -1).".to_owned())
        );
        assert_eq!(
            u32::parse(Some(&json!(5_000_000_000_u64)), &BARE).map_err(|e| e.to_string()),
            Err("Error: 'offset' must be between 0 and 4294967295 (got 5000000000).".to_owned())
        );
        assert_eq!(u64::parse(Some(&json!(u64::MAX)), &BARE), Ok(u64::MAX));
        // Beyond `u32`, the type's own maximum goes unsaid, as the schema leaves it unsaid.
        assert_eq!(
            usize::parse(Some(&json!(-1)), &BARE).map_err(|e| e.to_string()),
            Err("Error: 'offset' must be 0 or more (got -1).".to_owned())
        );
        assert_eq!(
            u64::parse(
                Some(&json!("-99999999999999999999999999999999999999999")),
                &BARE
            )
            .map_err(|e| e.to_string()),
            Err("Error: 'offset' must be an integer of 0 or more.".to_owned())
        );
        assert_eq!(
            u64::parse(Some(&json!("99999999999999999999")), &BARE).map_err(|e| e.to_string()),
            Err(format!(
                "Error: 'offset' must be between 0 and {} (got 99999999999999999999).",
                u64::MAX
            ))
        );
        assert_eq!(usize::parse(None, &LIMIT), Ok(20));
        assert_eq!(
            Option::<usize>::parse(Some(&json!(500)), &CLAMPED),
            Ok(Some(100))
        );
        assert!(
            Option::<u64>::parse(Some(&json!(-5)), &CLAMPED).is_err(),
            "below the minimum is refused, clamped or not"
        );
        assert_eq!(Option::<u32>::parse(Some(&json!(null)), &BARE), Ok(None));
        assert!(u32::is_required(&BARE) && !u32::is_required(&LIMIT));
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
        // Unsigned: `minimum: 0`, and never a `format` some clients would not know.
        assert_eq!(
            serde_json::Value::Object(Option::<u32>::schema(&BARE)),
            json!({"type": "integer", "description": "First line.", "minimum": 0, "maximum": 4294967295_u32})
        );
        assert_eq!(
            serde_json::Value::Object(u64::schema(&BARE)),
            json!({"type": "integer", "description": "First line.", "minimum": 0})
        );
        assert_eq!(
            serde_json::Value::Object(usize::schema(&LIMIT)),
            json!({"type": "integer", "description": "Rows per page.", "minimum": 1, "maximum": 100, "default": 20})
        );
    }

    /// `range = 1..`: a minimum alone, as a 1-based position declares it.
    const FROM_ONE: ParamSpec = ParamSpec {
        range: Some((Number::Int(1), None)),
        ..ParamSpec::new("line", "The first line, 1-based.")
    };

    #[test]
    fn a_minimum_alone_bounds_one_side() {
        let described =
            json!({"type": "integer", "description": "The first line, 1-based.", "minimum": 1});
        assert_eq!(
            serde_json::Value::Object(Option::<usize>::schema(&FROM_ONE)),
            described
        );
        assert_eq!(serde_json::Value::Object(i64::schema(&FROM_ONE)), described);
        // `u32`'s own maximum is still one a client could send past.
        assert_eq!(
            u32::schema(&FROM_ONE).get("maximum"),
            Some(&json!(u32::MAX))
        );
        for (got, refused) in [(json!(0), "0"), (json!("-4"), "-4")] {
            let message = format!("Error: 'line' must be 1 or more (got {refused}).");
            assert_eq!(
                usize::parse(Some(&got), &FROM_ONE).map_err(|e| e.to_string()),
                Err(message.clone())
            );
            assert_eq!(parse(got, &FROM_ONE), Err(message));
        }
        assert_eq!(
            usize::parse(Some(&json!(u64::MAX)), &FROM_ONE),
            Ok(usize::MAX)
        );
        assert_eq!(parse(json!(i64::MAX), &FROM_ONE), Ok(i64::MAX));
        let clamped = ParamSpec {
            clamp: true,
            ..FROM_ONE
        };
        assert_eq!(
            Option::<usize>::parse(Some(&json!(0)), &clamped).map_err(|e| e.to_string()),
            Err("Error: 'line' must be 1 or more (got 0).".to_owned())
        );
        assert_eq!(parse(json!(1e30), &clamped), Ok(i64::MAX));
    }
}
