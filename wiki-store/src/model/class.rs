//! Classes: the typed, ordered fields a document defines for structured data.
//!
//! A class lives on a document (its full name is the class name, e.g. `Blog.PostClass`); objects
//! of the class live on any document of the same wiki. Removing a field only disables it: the
//! definition and every stored value stay, hidden from reads and queries, and adding the field back
//! with the same name shows them again (removal is reversible).

use std::collections::BTreeMap;
use std::fmt;

use crate::error::{InvalidInput, StoreError};
use crate::model::rules::FieldRules;

/// A class: its name and its fields in display order (disabled fields included).
#[derive(Debug, Clone, PartialEq)]
pub struct ClassDefinition {
    /// The class name: the full name of the document that defines it, without the wiki.
    pub name: String,
    /// Every field, in order; disabled ones are kept for reversibility.
    pub fields: Vec<FieldDefinition>,
}

impl ClassDefinition {
    /// The enabled field called `name`, if any.
    pub fn field(&self, name: &str) -> Option<&FieldDefinition> {
        self.fields.iter().find(|f| f.name == name && !f.disabled)
    }

    /// Names of the enabled fields, in order (for "unknown field" messages).
    pub fn enabled_names(&self) -> Vec<String> {
        self.fields
            .iter()
            .filter(|f| !f.disabled)
            .map(|f| f.name.clone())
            .collect()
    }

    /// The enabled field called `name`, or an error listing the enabled fields.
    pub fn require_field(&self, name: &str) -> Result<&FieldDefinition, StoreError> {
        self.field(name).ok_or_else(|| {
            StoreError::Invalid(InvalidInput::UnknownField {
                class: self.name.clone(),
                field: name.to_owned(),
                known: self.enabled_names(),
            })
        })
    }
}

/// One field of a class.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldDefinition {
    /// The field name (`[A-Za-z_][A-Za-z0-9_]*`, at most 64 characters).
    pub name: String,
    /// A human label, if different from the name.
    pub pretty_name: Option<String>,
    /// The type and its type-specific attributes.
    pub field_type: FieldType,
    /// Its default value and validation rule.
    pub rules: FieldRules,
    /// Removed from the class: hidden from reads and queries, values kept.
    pub disabled: bool,
}

/// Whether a Number field holds integers or floating-point numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberKind {
    /// 64-bit signed integers.
    Integer,
    /// 64-bit floating-point numbers (finite only).
    Float,
}

/// A field type with its type-specific attributes.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldType {
    /// One line of text.
    String,
    /// Multi-line text.
    TextArea,
    /// A number.
    Number(NumberKind),
    /// True or false.
    Boolean,
    /// A date (`date_only`) or a date and time, stored in UTC.
    Date {
        /// Whether only the calendar day matters.
        date_only: bool,
    },
    /// A value (or several, with `multiselect`) from a fixed list.
    StaticList {
        /// The allowed values, in display order.
        values: Vec<String>,
        /// Whether several values may be chosen.
        multiselect: bool,
    },
    /// A secret: stored sealed (see [`crate::secret::password`]), never returned.
    Password,
    /// An e-mail address.
    Email,
    /// A reference to a wiki page.
    Page,
}

/// The type names accepted by [`FieldType::from_parts`], for error messages and schemas.
pub const FIELD_TYPE_NAMES: [&str; 9] = [
    "String",
    "TextArea",
    "Number",
    "Boolean",
    "Date",
    "StaticList",
    "Password",
    "Email",
    "Page",
];

impl FieldType {
    /// The type name, as stored and shown (`StaticList`).
    pub fn name(&self) -> &'static str {
        match self {
            FieldType::String => "String",
            FieldType::TextArea => "TextArea",
            FieldType::Number(_) => "Number",
            FieldType::Boolean => "Boolean",
            FieldType::Date { .. } => "Date",
            FieldType::StaticList { .. } => "StaticList",
            FieldType::Password => "Password",
            FieldType::Email => "Email",
            FieldType::Page => "Page",
        }
    }

    /// The attribute names this type accepts (a closed list per type): its own, then the rule
    /// attributes ([`FieldRules`]); a Password takes no default (it would be a shared secret).
    pub fn accepted_attributes(type_name: &str) -> &'static [&'static str] {
        match type_name {
            "Number" => &[
                "number_type",
                "default",
                "validation_regexp",
                "validation_message",
            ],
            "Date" => &[
                "date_only",
                "default",
                "validation_regexp",
                "validation_message",
            ],
            "StaticList" => &[
                "values",
                "multiselect",
                "default",
                "validation_regexp",
                "validation_message",
            ],
            "Password" => &["validation_regexp", "validation_message"],
            _ => &["default", "validation_regexp", "validation_message"],
        }
    }

    /// Builds a type from its name and its attributes, refusing an unknown type, an unknown
    /// attribute (listing the accepted ones) or a malformed attribute value. Rule attributes are
    /// accepted and left to [`FieldRules`].
    pub fn from_parts(
        type_name: &str,
        attributes: &BTreeMap<String, String>,
    ) -> Result<FieldType, StoreError> {
        if !FIELD_TYPE_NAMES.contains(&type_name) {
            return Err(StoreError::Invalid(InvalidInput::Keyword {
                what: "field type",
                expected: "String, TextArea, Number, Boolean, Date, StaticList, Password, Email, Page",
            }));
        }
        let accepted = FieldType::accepted_attributes(type_name);
        if let Some(unknown) = attributes.keys().find(|k| !accepted.contains(&k.as_str())) {
            return Err(StoreError::Invalid(InvalidInput::FieldAttribute {
                field_type: type_name.to_owned(),
                attribute: unknown.clone(),
                accepted,
            }));
        }
        let attribute = |key: &str| attributes.get(key).map(|v| v.trim());
        Ok(match type_name {
            "String" => FieldType::String,
            "TextArea" => FieldType::TextArea,
            "Number" => FieldType::Number(match attribute("number_type") {
                None | Some("integer") => NumberKind::Integer,
                Some("float") => NumberKind::Float,
                Some(_) => return Err(bad_attribute("number_type", "integer or float")),
            }),
            "Boolean" => FieldType::Boolean,
            "Date" => FieldType::Date {
                date_only: flag(attribute("date_only"), "date_only")?,
            },
            "StaticList" => {
                let values = split_list(attribute("values").unwrap_or(""));
                if values.is_empty() {
                    return Err(bad_attribute("values", "the list values, separated by '|'"));
                }
                FieldType::StaticList {
                    values,
                    multiselect: flag(attribute("multiselect"), "multiselect")?,
                }
            }
            "Password" => FieldType::Password,
            "Email" => FieldType::Email,
            _ => FieldType::Page,
        })
    }

    /// The attributes that rebuild this type with [`FieldType::from_parts`] (for storage).
    pub fn attributes(&self) -> BTreeMap<String, String> {
        let mut map = BTreeMap::new();
        match self {
            FieldType::Number(kind) => {
                let kind = match kind {
                    NumberKind::Integer => "integer",
                    NumberKind::Float => "float",
                };
                map.insert("number_type".to_owned(), kind.to_owned());
            }
            FieldType::Date { date_only } => {
                map.insert("date_only".to_owned(), date_only.to_string());
            }
            FieldType::StaticList {
                values,
                multiselect,
            } => {
                map.insert("values".to_owned(), values.join("|"));
                map.insert("multiselect".to_owned(), multiselect.to_string());
            }
            _ => {}
        }
        map
    }

    /// Whether values of this type may be filtered and sorted on (not secrets, not lists).
    pub fn is_queryable(&self) -> bool {
        !matches!(self, FieldType::Password | FieldType::StaticList { .. })
    }

    /// Whether `contains` applies (text types only).
    pub fn is_text(&self) -> bool {
        matches!(
            self,
            FieldType::String | FieldType::TextArea | FieldType::Email | FieldType::Page
        )
    }
}

impl fmt::Display for FieldType {
    /// The schema form: `StaticList(News|Personal) multiselect`, `Number(float)`, `String`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldType::Number(NumberKind::Integer) => f.write_str("Number(integer)"),
            FieldType::Number(NumberKind::Float) => f.write_str("Number(float)"),
            FieldType::Date { date_only: true } => f.write_str("Date(date)"),
            FieldType::Date { date_only: false } => f.write_str("Date(datetime)"),
            FieldType::StaticList {
                values,
                multiselect,
            } => {
                write!(f, "StaticList({})", values.join("|"))?;
                if *multiselect {
                    f.write_str(" multiselect")?;
                }
                Ok(())
            }
            other => f.write_str(other.name()),
        }
    }
}

/// Splits a list attribute or a multi-select value on `|` or `,`, trimming and dropping empties.
pub(crate) fn split_list(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in text
        .split(['|', ','])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        if !out.iter().any(|seen| seen == part) {
            out.push(part.to_owned());
        }
    }
    out
}

fn flag(value: Option<&str>, key: &'static str) -> Result<bool, StoreError> {
    match value {
        None | Some("false") | Some("0") => Ok(false),
        Some("true") | Some("1") => Ok(true),
        Some(_) => Err(bad_attribute(key, "true or false")),
    }
}

fn bad_attribute(attribute: &'static str, expected: &'static str) -> StoreError {
    StoreError::Invalid(InvalidInput::AttributeValue {
        attribute,
        expected,
    })
}

/// Checks a field name: 1 to 64 characters, `[A-Za-z_][A-Za-z0-9_]*`.
pub fn validate_field_name(name: &str) -> Result<(), StoreError> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(StoreError::Invalid(InvalidInput::Name {
            what: "field name",
            reason: "use 1 to 64 ASCII letters, digits or '_', not starting with a digit"
                .to_owned(),
        }))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An attribute map from pairs (shared by the unit tests of field types and rules).
    pub(crate) fn attrs(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn types_round_trip_through_their_attributes() -> Result<(), StoreError> {
        let types = [
            FieldType::String,
            FieldType::TextArea,
            FieldType::Number(NumberKind::Integer),
            FieldType::Number(NumberKind::Float),
            FieldType::Boolean,
            FieldType::Date { date_only: true },
            FieldType::Date { date_only: false },
            FieldType::StaticList {
                values: vec!["News".into(), "Other".into()],
                multiselect: true,
            },
            FieldType::Password,
            FieldType::Email,
            FieldType::Page,
        ];
        for ty in types {
            assert_eq!(FieldType::from_parts(ty.name(), &ty.attributes())?, ty);
        }
        Ok(())
    }

    #[test]
    fn unknown_types_and_attributes_are_refused_with_what_is_accepted() {
        let unknown_type = FieldType::from_parts("Blob", &BTreeMap::new());
        assert!(unknown_type.is_err_and(|e| e.to_string().contains("StaticList")));
        let unknown_attr = FieldType::from_parts("Number", &attrs(&[("size", "3")]));
        assert!(matches!(
            unknown_attr,
            Err(StoreError::Invalid(InvalidInput::FieldAttribute {
                accepted: ["number_type", "default", ..],
                ..
            }))
        ));
        let rules_only = FieldType::from_parts("Email", &attrs(&[("x", "1")]));
        assert!(matches!(
            rules_only,
            Err(StoreError::Invalid(InvalidInput::FieldAttribute {
                accepted: ["default", "validation_regexp", "validation_message"],
                ..
            }))
        ));
        let no_secret_default = FieldType::from_parts("Password", &attrs(&[("default", "x")]));
        assert!(no_secret_default.is_err());
        assert!(FieldType::from_parts("Email", &attrs(&[("default", "a@b.org")])).is_ok());
        assert!(FieldType::from_parts("Number", &attrs(&[("number_type", "big")])).is_err());
        assert!(FieldType::from_parts("StaticList", &BTreeMap::new()).is_err());
        assert!(FieldType::from_parts("Date", &attrs(&[("date_only", "yes")])).is_err());
    }

    #[test]
    fn list_values_split_on_pipes_or_commas() -> Result<(), StoreError> {
        let ty = FieldType::from_parts("StaticList", &attrs(&[("values", "a| b ,c,,a")]))?;
        assert_eq!(ty.to_string(), "StaticList(a|b|c)");
        Ok(())
    }

    #[test]
    fn field_names_are_identifiers() {
        for good in ["title", "_x", "a1_b"] {
            assert!(validate_field_name(good).is_ok(), "{good}");
        }
        for bad in ["", "1a", "a-b", "a b", "é"] {
            assert!(validate_field_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn disabled_fields_are_invisible_but_kept() {
        let class = ClassDefinition {
            name: "C".into(),
            fields: vec![
                FieldDefinition {
                    name: "a".into(),
                    pretty_name: None,
                    field_type: FieldType::String,
                    rules: FieldRules::default(),
                    disabled: false,
                },
                FieldDefinition {
                    name: "b".into(),
                    pretty_name: None,
                    field_type: FieldType::String,
                    rules: FieldRules::default(),
                    disabled: true,
                },
            ],
        };
        assert!(class.field("b").is_none());
        assert_eq!(class.enabled_names(), ["a"]);
        assert!(matches!(
            class.require_field("b"),
            Err(StoreError::Invalid(InvalidInput::UnknownField { known, .. })) if known == ["a"]
        ));
    }
}
