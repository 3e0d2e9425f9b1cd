//! Value coercion: text from an agent or an admin -> the typed value a field stores, and back.
//!
//! Every backend stores one of three scalar kinds ([`StoredValue`]): text, integer or real.
//! Booleans are 0/1, dates are Unix seconds in UTC (so comparisons and sorting are numeric), list
//! selections are their values joined with `|`, Password values are sealed digests.

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime, PrimitiveDateTime, Time};

use crate::error::{InvalidInput, StoreError};
use crate::model::class::{FieldDefinition, FieldType, NumberKind, split_list};
use crate::model::object::FieldValue;
use crate::secret::password;

/// The longest String value, in characters.
pub const MAX_STRING_VALUE: usize = 65_535;
/// The longest TextArea value, in characters (the size cap of document content).
pub const MAX_TEXT_AREA_VALUE: usize = 1_000_000;

/// A value as a backend stores it.
#[derive(Debug, Clone, PartialEq)]
pub enum StoredValue {
    /// Text: String, TextArea, Email, Page, list selections, sealed passwords.
    Text(String),
    /// Integers, booleans (0/1) and dates (Unix seconds).
    Integer(i64),
    /// Float numbers.
    Real(f64),
}

/// Coerces `raw` into what `field` stores, or explains what the field expects.
///
/// Password values are sealed here, so the clear text never reaches storage.
pub fn coerce_value(field: &FieldDefinition, raw: &str) -> Result<StoredValue, StoreError> {
    let refuse = |expected: &str| {
        StoreError::Invalid(InvalidInput::FieldValue {
            field: field.name.clone(),
            expected: expected.to_owned(),
        })
    };
    match &field.field_type {
        FieldType::String => {
            if raw.chars().count() > MAX_STRING_VALUE {
                return Err(refuse("at most 65535 characters (use a TextArea field)"));
            }
            if raw.chars().any(|c| c.is_control() && c != '\t') {
                return Err(refuse("one line of text without control characters"));
            }
            Ok(StoredValue::Text(raw.to_owned()))
        }
        FieldType::TextArea => {
            if raw.chars().count() > MAX_TEXT_AREA_VALUE {
                return Err(refuse("at most 1000000 characters"));
            }
            Ok(StoredValue::Text(raw.to_owned()))
        }
        FieldType::Number(NumberKind::Integer) => raw
            .trim()
            .parse::<i64>()
            .map(StoredValue::Integer)
            .map_err(|_| refuse("an integer, e.g. 42")),
        FieldType::Number(NumberKind::Float) => match raw.trim().parse::<f64>() {
            Ok(number) if number.is_finite() => Ok(StoredValue::Real(number)),
            _ => Err(refuse("a number, e.g. 3.5")),
        },
        FieldType::Boolean => parse_boolean(raw)
            .map(|b| StoredValue::Integer(i64::from(b)))
            .ok_or_else(|| refuse("true, false, 1 or 0")),
        FieldType::Date { date_only: false } => parse_date(raw)
            .map(|date| StoredValue::Integer(date.unix_timestamp()))
            .ok_or_else(|| {
                refuse("a date as YYYY-MM-DD, YYYY-MM-DD HH:MM or RFC 3339 (2026-11-30T09:30:00Z)")
            }),
        // A time of day would be lost: refused, not truncated (midnight UTC loses nothing).
        FieldType::Date { date_only: true } => match parse_date(raw) {
            Some(date) if date.time() == Time::MIDNIGHT => {
                Ok(StoredValue::Integer(date.unix_timestamp()))
            }
            Some(_) => Err(refuse(
                "a date without a time of day, e.g. 2026-11-30: it holds a date only, so drop \
                 the time (or make the field a date-time with date_only=false)",
            )),
            None => Err(refuse("a date as YYYY-MM-DD, e.g. 2026-11-30")),
        },
        FieldType::StaticList {
            values,
            multiselect,
        } => {
            let chosen = if *multiselect {
                split_list(raw)
            } else {
                vec![raw.trim().to_owned()]
            };
            let allowed = format!("one of: {}", values.join(", "));
            if chosen.is_empty() || chosen.iter().any(|c| !values.contains(c)) {
                return Err(refuse(&if *multiselect {
                    format!("values separated by '|' or ',', each {allowed}")
                } else {
                    allowed
                }));
            }
            Ok(StoredValue::Text(chosen.join("|")))
        }
        FieldType::Password => {
            if raw.is_empty() {
                return Err(refuse("a non-empty secret"));
            }
            Ok(StoredValue::Text(password::seal(raw)))
        }
        FieldType::Email => {
            let trimmed = raw.trim();
            if is_email(trimmed) {
                Ok(StoredValue::Text(trimmed.to_owned()))
            } else {
                Err(refuse("an e-mail address, e.g. name@example.org"))
            }
        }
        FieldType::Page => {
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.len() > 768 || trimmed.chars().any(char::is_control) {
                return Err(refuse("a page reference, e.g. Space.Page"));
            }
            Ok(StoredValue::Text(trimmed.to_owned()))
        }
    }
}

/// Turns a stored value back into what readers see. Password values are always
/// [`FieldValue::Masked`]; a value that no longer fits its field's type (its attributes changed)
/// is shown as text rather than dropped.
pub fn decode_value(field_type: &FieldType, stored: StoredValue) -> FieldValue {
    match (field_type, stored) {
        (FieldType::Password, _) => FieldValue::Masked,
        (FieldType::Number(_), StoredValue::Integer(n)) => FieldValue::Integer(n),
        (FieldType::Number(_), StoredValue::Real(x)) => FieldValue::Float(x),
        (FieldType::Boolean, StoredValue::Integer(n)) => FieldValue::Boolean(n != 0),
        (FieldType::Date { .. }, StoredValue::Integer(seconds)) => {
            match OffsetDateTime::from_unix_timestamp(seconds) {
                Ok(date) => FieldValue::Date(date),
                Err(_) => FieldValue::Integer(seconds),
            }
        }
        (FieldType::StaticList { .. }, StoredValue::Text(text)) => {
            FieldValue::List(text.split('|').map(str::to_owned).collect())
        }
        (_, StoredValue::Text(text)) => FieldValue::Text(text),
        (_, StoredValue::Integer(n)) => FieldValue::Integer(n),
        (_, StoredValue::Real(x)) => FieldValue::Float(x),
    }
}

fn parse_boolean(raw: &str) -> Option<bool> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" => Some(true),
        "false" | "0" | "no" => Some(false),
        _ => None,
    }
}

/// Whether writing `raw` to `field` clears its value: an empty (or blank) value of a field
/// that is not text (a number, a flag, a date, a list, an e-mail address, a page). Text fields
/// store the empty text; a Password is never cleared this way.
pub fn clears(field: &FieldDefinition, raw: &str) -> bool {
    !matches!(
        field.field_type,
        FieldType::String | FieldType::TextArea | FieldType::Password
    ) && raw.trim().is_empty()
}

/// Parses the accepted date forms, in UTC.
pub(crate) fn parse_date(raw: &str) -> Option<OffsetDateTime> {
    let raw = raw.trim();
    let parsed = OffsetDateTime::parse(raw, &Rfc3339)
        .ok()
        .or_else(|| {
            PrimitiveDateTime::parse(
                raw,
                format_description!("[year]-[month]-[day] [hour]:[minute]"),
            )
            .or_else(|_| {
                PrimitiveDateTime::parse(
                    raw,
                    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]"),
                )
            })
            .ok()
            .map(PrimitiveDateTime::assume_utc)
        })
        .or_else(|| {
            Date::parse(raw, format_description!("[year]-[month]-[day]"))
                .ok()
                .map(|day| day.with_time(Time::MIDNIGHT).assume_utc())
        })?
        .to_offset(time::UtcOffset::UTC);
    Some(parsed)
}

fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else {
        return false;
    };
    text.len() <= 254
        && !local.is_empty()
        && !local.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !text.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(field_type: FieldType) -> FieldDefinition {
        FieldDefinition {
            name: "f".into(),
            pretty_name: None,
            field_type,
            rules: Default::default(),
            disabled: false,
        }
    }

    fn list(multiselect: bool) -> FieldType {
        FieldType::StaticList {
            values: vec!["News".into(), "Personal".into(), "Other".into()],
            multiselect,
        }
    }

    #[test]
    fn good_values_coerce_per_type() {
        let integer = FieldType::Number(NumberKind::Integer);
        let float = FieldType::Number(NumberKind::Float);
        let cases: Vec<(FieldType, &str, StoredValue)> = vec![
            (
                FieldType::String,
                "hello",
                StoredValue::Text("hello".into()),
            ),
            (
                FieldType::TextArea,
                "a\nb",
                StoredValue::Text("a\nb".into()),
            ),
            (integer, " -42 ", StoredValue::Integer(-42)),
            (float.clone(), "3.5", StoredValue::Real(3.5)),
            (float, "2", StoredValue::Real(2.0)),
            (FieldType::Boolean, "TRUE", StoredValue::Integer(1)),
            (FieldType::Boolean, "0", StoredValue::Integer(0)),
            (
                FieldType::Date { date_only: true },
                "2026-11-30",
                StoredValue::Integer(1_795_996_800),
            ),
            (
                FieldType::Date { date_only: true },
                "2026-11-30T00:00:00Z",
                StoredValue::Integer(1_795_996_800),
            ),
            (
                FieldType::Date { date_only: false },
                "2026-11-30 01:00",
                StoredValue::Integer(1_796_000_400),
            ),
            (
                FieldType::Date { date_only: false },
                "2026-11-30T03:00:00+02:00",
                StoredValue::Integer(1_796_000_400),
            ),
            (list(false), "News", StoredValue::Text("News".into())),
            (
                list(true),
                "Other, News|Other",
                StoredValue::Text("Other|News".into()),
            ),
            (
                FieldType::Email,
                " a.b@example.org ",
                StoredValue::Text("a.b@example.org".into()),
            ),
            (
                FieldType::Page,
                "Space.Page",
                StoredValue::Text("Space.Page".into()),
            ),
        ];
        for (ty, raw, expected) in cases {
            let got = coerce_value(&field(ty.clone()), raw);
            assert_eq!(got.ok(), Some(expected), "{ty} {raw:?}");
        }
    }

    #[test]
    fn bad_values_are_refused_saying_what_is_expected() {
        let cases: Vec<(FieldType, &str, &str)> = vec![
            (FieldType::String, "two\nlines", "one line"),
            (FieldType::Number(NumberKind::Integer), "4.5", "an integer"),
            (
                FieldType::Number(NumberKind::Integer),
                "99999999999999999999",
                "an integer",
            ),
            (FieldType::Number(NumberKind::Float), "NaN", "a number"),
            (FieldType::Number(NumberKind::Float), "inf", "a number"),
            (FieldType::Boolean, "maybe", "true, false"),
            (
                FieldType::Date { date_only: false },
                "30/11/2026",
                "YYYY-MM-DD",
            ),
            (
                FieldType::Date { date_only: true },
                "2026-02-30",
                "YYYY-MM-DD",
            ),
            // Regression: the time of day was silently dropped.
            (
                FieldType::Date { date_only: true },
                "2026-11-30T23:59:00Z",
                "without a time of day",
            ),
            (
                FieldType::Date { date_only: true },
                "2026-11-30T00:00:00+02:00",
                "without a time of day",
            ),
            (list(false), "Sport", "one of: News, Personal, Other"),
            (list(false), "News|Other", "one of"),
            (list(true), "News|Sport", "each one of"),
            (list(true), " | ", "each one of"),
            (FieldType::Password, "", "non-empty"),
            (FieldType::Email, "not-an-address", "e-mail"),
            (FieldType::Email, "a b@example.org", "e-mail"),
            (FieldType::Page, "", "page reference"),
        ];
        for (ty, raw, expected) in cases {
            match coerce_value(&field(ty.clone()), raw) {
                Err(StoreError::Invalid(InvalidInput::FieldValue { expected: said, .. })) => {
                    assert!(said.contains(expected), "{ty} {raw:?}: {said}");
                }
                other => panic!("{ty} {raw:?} should be refused, got {other:?}"),
            }
        }
    }

    #[test]
    fn an_empty_value_clears_a_field_that_is_not_text() {
        for ty in [
            FieldType::Number(NumberKind::Integer),
            FieldType::Boolean,
            FieldType::Date { date_only: true },
            list(false),
            FieldType::Email,
            FieldType::Page,
        ] {
            assert!(clears(&field(ty.clone()), " "), "{ty}");
            assert!(!clears(&field(ty.clone()), "1"), "{ty}");
        }
        for ty in [FieldType::String, FieldType::TextArea, FieldType::Password] {
            assert!(!clears(&field(ty.clone()), ""), "{ty}");
        }
    }

    #[test]
    fn passwords_are_sealed_and_read_back_masked() {
        let stored = coerce_value(&field(FieldType::Password), "hunter2");
        assert!(matches!(&stored, Ok(StoredValue::Text(t)) if !t.contains("hunter2")));
        if let Ok(stored) = stored {
            assert_eq!(
                decode_value(&FieldType::Password, stored),
                FieldValue::Masked
            );
        }
    }

    #[test]
    fn stored_values_decode_to_their_types() {
        assert_eq!(
            decode_value(&FieldType::Boolean, StoredValue::Integer(1)),
            FieldValue::Boolean(true)
        );
        assert_eq!(
            decode_value(&list(true), StoredValue::Text("News|Other".into())),
            FieldValue::List(vec!["News".into(), "Other".into()])
        );
        assert!(matches!(
            decode_value(&FieldType::Date { date_only: true }, StoredValue::Integer(1_795_996_800)),
            FieldValue::Date(d) if d.unix_timestamp() == 1_795_996_800
        ));
        assert_eq!(
            decode_value(
                &FieldType::Number(NumberKind::Integer),
                StoredValue::Text("x".into())
            ),
            FieldValue::Text("x".into())
        );
    }
}
