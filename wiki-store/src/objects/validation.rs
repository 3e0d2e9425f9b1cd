//! Field rules judged: whether a class author's default and validation pattern make sense for the
//! field's type (when the schema changes), and whether a written value satisfies the pattern (on
//! every object write, whoever writes).
//!
//! Patterns are Rust `regex` syntax, compiled under a size limit: matching is linear in the
//! value, so no pattern an author writes can make a write slow, and one too large to compile
//! within the limit is refused when it is set.

use std::collections::BTreeMap;

use regex::{Regex, RegexBuilder};

use crate::error::{InvalidInput, StoreError};
use crate::model::class::{FieldDefinition, FieldType};
use crate::model::rules::{FieldRules, MAX_MESSAGE, MAX_REGEXP};
use crate::objects::coerce::coerce_value;

/// The compiled size a pattern may reach (bytes of its automaton).
const COMPILED_LIMIT: usize = 1 << 20;

/// A field's type and rules from its type name and attributes, every rule checked against the
/// type: the form `write_schema` and the store's class changes both use.
pub fn field_spec(
    name: &str,
    type_name: &str,
    attributes: &BTreeMap<String, String>,
) -> Result<(FieldType, FieldRules), StoreError> {
    let field_type = FieldType::from_parts(type_name, attributes)?;
    if FieldRules::orphan_message(attributes) {
        return Err(bad_rule(
            "validation_message",
            "a validation_regexp to go with it (the message explains the pattern)",
        ));
    }
    let rules = FieldRules::from_attributes(attributes);
    check_rules(name, &field_type, &rules)?;
    Ok((field_type, rules))
}

/// Checks a field's rules against its type: a pattern that compiles within the limits and
/// contains no control character, a message of one line, and a default the type accepts and the
/// pattern matches.
pub fn check_rules(
    name: &str,
    field_type: &FieldType,
    rules: &FieldRules,
) -> Result<(), StoreError> {
    if let Some(validation) = &rules.validation {
        let pattern = &validation.regexp;
        if pattern.chars().count() > MAX_REGEXP || pattern.chars().any(char::is_control) {
            return Err(bad_rule(
                "validation_regexp",
                "a regular expression of at most 500 characters, on one line",
            ));
        }
        compile(pattern)?;
        if let Some(message) = &validation.message
            && (message.chars().count() > MAX_MESSAGE || message.chars().any(char::is_control))
        {
            return Err(bad_rule(
                "validation_message",
                "one line of at most 255 characters",
            ));
        }
    }
    if let Some(default) = &rules.default {
        if matches!(field_type, FieldType::Password) {
            return Err(bad_rule(
                "default",
                "nothing: a Password field takes no default",
            ));
        }
        let field = FieldDefinition {
            name: name.to_owned(),
            pretty_name: None,
            field_type: field_type.clone(),
            rules: rules.clone(),
            disabled: false,
        };
        coerce_value(&field, default).map_err(|error| match error {
            StoreError::Invalid(InvalidInput::FieldValue { expected, .. }) => {
                StoreError::Invalid(InvalidInput::FieldValue {
                    field: "default".to_owned(),
                    expected,
                })
            }
            other => other,
        })?;
        check_value(&field, default)?;
    }
    Ok(())
}

/// Whether `raw`, written to `field`, satisfies its validation pattern; the refusal names the
/// field, the pattern and the class author's message. Text types are judged as written, other
/// types without the surrounding spaces their coercion ignores.
pub fn check_value(field: &FieldDefinition, raw: &str) -> Result<(), StoreError> {
    let Some(validation) = &field.rules.validation else {
        return Ok(());
    };
    let subject = match field.field_type {
        FieldType::String | FieldType::TextArea | FieldType::Password => raw,
        _ => raw.trim(),
    };
    if compile(&validation.regexp)?.is_match(subject) {
        return Ok(());
    }
    Err(StoreError::Invalid(InvalidInput::FieldRule {
        field: field.name.clone(),
        regexp: validation.regexp.clone(),
        message: validation.message.clone(),
    }))
}

fn compile(pattern: &str) -> Result<Regex, StoreError> {
    RegexBuilder::new(pattern)
        .size_limit(COMPILED_LIMIT)
        .dfa_size_limit(COMPILED_LIMIT)
        .build()
        .map_err(|_| {
            bad_rule(
                "validation_regexp",
                "a valid regular expression (Rust regex syntax: no look-around or \
                 back-references), small enough to compile",
            )
        })
}

fn bad_rule(attribute: &'static str, expected: &'static str) -> StoreError {
    StoreError::Invalid(InvalidInput::AttributeValue {
        attribute,
        expected,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::class::NumberKind;
    use crate::model::class::tests::attrs;

    fn refused_attribute(result: Result<(FieldType, FieldRules), StoreError>) -> &'static str {
        match result {
            Err(StoreError::Invalid(InvalidInput::AttributeValue { attribute, .. })) => attribute,
            other => panic!("expected an attribute refusal, got {other:?}"),
        }
    }

    #[test]
    fn rules_are_checked_against_the_type() {
        let ok = field_spec(
            "code",
            "String",
            &attrs(&[
                ("default", "ABC"),
                ("validation_regexp", "^[A-Z]{3}$"),
                ("validation_message", "Three capitals"),
            ]),
        );
        assert!(ok.is_ok(), "{ok:?}");
        let default_breaks_pattern = field_spec(
            "code",
            "String",
            &attrs(&[("default", "abc"), ("validation_regexp", "^[A-Z]{3}$")]),
        );
        assert!(matches!(
            default_breaks_pattern,
            Err(StoreError::Invalid(InvalidInput::FieldRule { .. }))
        ));
        let wrong_type = field_spec("n", "Number", &attrs(&[("default", "many")]));
        assert!(matches!(
            wrong_type,
            Err(StoreError::Invalid(InvalidInput::FieldValue { field, .. })) if field == "default"
        ));
        assert_eq!(
            refused_attribute(field_spec(
                "s",
                "String",
                &attrs(&[("validation_regexp", "(a")])
            )),
            "validation_regexp"
        );
        assert_eq!(
            refused_attribute(field_spec(
                "s",
                "String",
                &attrs(&[("validation_regexp", "(?=a)")])
            )),
            "validation_regexp"
        );
        assert_eq!(
            refused_attribute(field_spec(
                "s",
                "String",
                &attrs(&[("validation_message", "alone")])
            )),
            "validation_message"
        );
        let huge = field_spec(
            "s",
            "String",
            &attrs(&[("validation_regexp", "\\w{1000}\\w{1000}\\w{1000}")]),
        );
        assert_eq!(refused_attribute(huge), "validation_regexp");
    }

    #[test]
    fn values_are_held_to_the_pattern_trimmed_only_where_the_type_trims() {
        let (field_type, rules) =
            field_spec("n", "Number", &attrs(&[("validation_regexp", "^[1-9]$")]))
                .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(field_type, FieldType::Number(NumberKind::Integer));
        let field = FieldDefinition {
            name: "n".into(),
            pretty_name: None,
            field_type,
            rules,
            disabled: false,
        };
        assert!(check_value(&field, " 7 ").is_ok());
        assert!(check_value(&field, "12").is_err());
        let text = FieldDefinition {
            field_type: FieldType::String,
            ..field
        };
        assert!(check_value(&text, " 7 ").is_err());
    }
}
