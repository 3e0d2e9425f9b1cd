//! What `get_schema` returns, structured: the catalog of classes in use, or one class's
//! fields, as its lines show them.

use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::class::{FieldDefinition, FieldType, NumberKind};

/// A catalog (no class) or one class.
#[mcp_output]
pub(crate) struct SchemaOutput {
    /// The wiki read.
    pub(crate) wiki: String,
    /// Catalog: the classes with objects whose class document you may view, by name (their
    /// counts are upper bounds); empty when one class is described.
    pub(crate) classes: Vec<ClassCount>,
    /// Catalog: whether only the first classes (by name) were read.
    pub(crate) capped: bool,
    /// The class described; null for the catalog.
    pub(crate) class: Option<ClassOutput>,
}

/// A class in use.
#[mcp_output]
pub(crate) struct ClassCount {
    /// The class name, e.g. `Tasks.TaskClass`.
    pub(crate) class: String,
    /// Objects of it in the wiki (including some you may not view: an upper bound).
    pub(crate) objects: u64,
}

/// A class and its fields.
#[mcp_output]
pub(crate) struct ClassOutput {
    /// The class name.
    pub(crate) name: String,
    /// Its class document (`wiki:Space.Page`).
    pub(crate) reference: String,
    /// Its fields, enabled ones first in their order, then the disabled ones.
    pub(crate) fields: Vec<FieldOutput>,
}

/// One field of a class.
#[mcp_output]
pub(crate) struct FieldOutput {
    /// The field's name, the key of write_object's `fields`.
    pub(crate) name: String,
    /// Its type: String, TextArea, Number, Boolean, Date, StaticList, Password, Email or Page.
    #[serde(rename = "type")]
    pub(crate) field_type: String,
    /// Its label, when it has one.
    pub(crate) label: Option<String>,
    /// Number: `integer` or `float`; Date: `date` or `datetime`; else null.
    pub(crate) kind: Option<String>,
    /// StaticList: the allowed values; else empty.
    pub(crate) values: Vec<String>,
    /// StaticList: whether several values may be chosen.
    pub(crate) multiselect: bool,
    /// The value a new object gets when write_object does not name the field; null for none.
    pub(crate) default: Option<String>,
    /// The regular expression every written value must match; null for none.
    pub(crate) validation_regexp: Option<String>,
    /// What a writer whose value does not match is told; null for none.
    pub(crate) validation_message: Option<String>,
    /// Whether the field is disabled (its values kept but hidden).
    pub(crate) disabled: bool,
}

impl FieldOutput {
    /// `field` as the output carries it.
    pub(crate) fn new(field: &FieldDefinition) -> Self {
        let (kind, values, multiselect) = match &field.field_type {
            FieldType::Number(NumberKind::Integer) => (Some("integer"), Vec::new(), false),
            FieldType::Number(NumberKind::Float) => (Some("float"), Vec::new(), false),
            FieldType::Date { date_only: true } => (Some("date"), Vec::new(), false),
            FieldType::Date { date_only: false } => (Some("datetime"), Vec::new(), false),
            FieldType::StaticList {
                values,
                multiselect,
            } => (None, values.clone(), *multiselect),
            _ => (None, Vec::new(), false),
        };
        Self {
            name: field.name.clone(),
            field_type: field.field_type.name().to_owned(),
            label: field
                .pretty_name
                .as_deref()
                .map(str::trim)
                .filter(|label| !label.is_empty())
                .map(str::to_owned),
            kind: kind.map(str::to_owned),
            values,
            multiselect,
            default: field.rules.default.clone(),
            validation_regexp: field.rules.validation.as_ref().map(|v| v.regexp.clone()),
            validation_message: field
                .rules
                .validation
                .as_ref()
                .and_then(|v| v.message.clone()),
            disabled: field.disabled,
        }
    }
}
