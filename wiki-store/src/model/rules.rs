//! Field rules: what a class field asks of its values beyond their type, a default for new objects
//! and a validation pattern with its message (the reference's `default=` and `[validation: ...]`
//! modifiers).
//!
//! Rules travel with a field's type-specific attributes (`default`, `validation_regexp`,
//! `validation_message`, all strings): they are set through the same `attributes` map, stored in the
//! same JSON column, so no backend needs a column of its own. Whether a value satisfies them is
//! decided once, in [`crate::objects::validation`].

use std::collections::BTreeMap;

/// The attribute that sets a field's default value.
pub const DEFAULT_ATTRIBUTE: &str = "default";
/// The attribute that sets a field's validation pattern.
pub const REGEXP_ATTRIBUTE: &str = "validation_regexp";
/// The attribute that sets the message shown when a value breaks the pattern.
pub const MESSAGE_ATTRIBUTE: &str = "validation_message";

/// The longest validation pattern, in characters.
pub const MAX_REGEXP: usize = 500;
/// The longest validation message, in characters.
pub const MAX_MESSAGE: usize = 255;

/// A field's rules; the default is no rule at all.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FieldRules {
    /// The value a new object takes when the write does not name the field, as text the field's
    /// type accepts (checked when it is set).
    pub default: Option<String>,
    /// The pattern every value written must match.
    pub validation: Option<Validation>,
}

/// A validation rule: a regular expression (Rust `regex` syntax, searched anywhere in the value,
/// so `^...$` anchors it to the whole value) and what to tell a writer whose value breaks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validation {
    /// The pattern.
    pub regexp: String,
    /// The writer-facing explanation, if the class author gave one.
    pub message: Option<String>,
}

impl FieldRules {
    /// Whether this is a rule attribute (accepted by every field type, see
    /// [`crate::model::class::FieldType::accepted_attributes`]).
    pub fn is_rule_attribute(key: &str) -> bool {
        matches!(
            key,
            DEFAULT_ATTRIBUTE | REGEXP_ATTRIBUTE | MESSAGE_ATTRIBUTE
        )
    }

    /// The rules an attribute map names, read without checks (an empty value means no rule);
    /// [`crate::objects::validation::check_rules`] judges them against the field's type.
    pub(crate) fn from_attributes(attributes: &BTreeMap<String, String>) -> FieldRules {
        let value = |key: &str| {
            attributes
                .get(key)
                .filter(|value| !value.is_empty())
                .cloned()
        };
        FieldRules {
            default: value(DEFAULT_ATTRIBUTE),
            validation: value(REGEXP_ATTRIBUTE).map(|regexp| Validation {
                regexp,
                message: value(MESSAGE_ATTRIBUTE),
            }),
        }
    }

    /// The message attribute given without a pattern (refused: it would never be shown).
    pub(crate) fn orphan_message(attributes: &BTreeMap<String, String>) -> bool {
        attributes
            .get(MESSAGE_ATTRIBUTE)
            .is_some_and(|message| !message.is_empty())
            && attributes
                .get(REGEXP_ATTRIBUTE)
                .is_none_or(|regexp| regexp.is_empty())
    }

    /// The attributes that rebuild these rules (for storage, beside the type's own).
    pub fn attributes(&self) -> BTreeMap<String, String> {
        let mut map = BTreeMap::new();
        if let Some(default) = &self.default {
            map.insert(DEFAULT_ATTRIBUTE.to_owned(), default.clone());
        }
        if let Some(validation) = &self.validation {
            map.insert(REGEXP_ATTRIBUTE.to_owned(), validation.regexp.clone());
            if let Some(message) = &validation.message {
                map.insert(MESSAGE_ATTRIBUTE.to_owned(), message.clone());
            }
        }
        map
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::class::tests::attrs;

    #[test]
    fn rules_round_trip_through_their_attributes() {
        let rules = FieldRules::from_attributes(&attrs(&[
            ("default", "News"),
            ("validation_regexp", "^[A-Z]"),
            ("validation_message", "Start with a capital"),
            ("values", "News|Other"),
        ]));
        assert_eq!(rules.default.as_deref(), Some("News"));
        assert_eq!(FieldRules::from_attributes(&rules.attributes()), rules);
        assert!(!rules.attributes().contains_key("values"));
    }

    #[test]
    fn empty_values_clear_a_rule_and_a_lone_message_is_an_orphan() {
        let cleared = attrs(&[("default", ""), ("validation_regexp", "")]);
        assert_eq!(FieldRules::from_attributes(&cleared), FieldRules::default());
        assert!(FieldRules::orphan_message(&attrs(&[(
            "validation_message",
            "x"
        )])));
        assert!(!FieldRules::orphan_message(&attrs(&[
            ("validation_message", "x"),
            ("validation_regexp", "y")
        ])));
    }
}
