//! What `query_objects` returns, structured: the objects its lines show (a query's page, one
//! object, or a document's inventory), their values typed rather than formatted.

use std::collections::BTreeMap;

use mcp_runtime::output::guard::FRAGMENT_MAX_CHARS;

use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::object::{FieldValue, ObjectRecord};

/// A query, one object, or an inventory.
#[mcp_output]
pub(crate) struct ObjectsOutput {
    /// The wiki read.
    pub(crate) wiki: String,
    /// The class queried (or of the object read); null for an inventory.
    pub(crate) class: Option<String>,
    /// Query: this page of matching objects; object: the one read; inventory: empty.
    pub(crate) objects: Vec<ObjectOutput>,
    /// Query: matching objects you may view (at least this many when `truncated`); object:
    /// 1; inventory: the document's objects.
    pub(crate) total: u64,
    /// Query: whether the scan stopped at its ceiling, so more may match.
    pub(crate) truncated: bool,
    /// Query: the `offset` of the next page; object: the `offset` that continues the last
    /// field shown (select it alone); null at the end.
    pub(crate) next_offset: Option<u64>,
    /// Inventory: the document's objects by class, with their numbers; else empty.
    pub(crate) inventory: Vec<ClassObjects>,
}

/// One object and its values.
#[mcp_output]
pub(crate) struct ObjectOutput {
    /// The document it is on.
    pub(crate) reference: String,
    /// The document's version.
    pub(crate) version: String,
    /// Its class.
    pub(crate) class: String,
    /// Its number on the document.
    pub(crate) number: u32,
    /// The fields shown (selected, or every set one), in the order shown.
    pub(crate) fields: Vec<ObjectField>,
}

/// One field's value.
#[mcp_output]
pub(crate) struct ObjectField {
    /// The field's name.
    pub(crate) name: String,
    /// `text`, `integer`, `float`, `boolean`, `date`, `list`, `masked` (a password: never
    /// shown) or `unset` (a selected field the object has no value for).
    pub(crate) kind: ValueKind,
    /// The value as text: the text itself (a query's capped at 200 characters with `…`; an
    /// object's whole, or the window shown), the number, `true`/`false`, the date (ISO-8601,
    /// or `yyyy-mm-dd` for a date-only field); null for a list, masked or unset value.
    pub(crate) value: Option<String>,
    /// A list's values; empty otherwise.
    pub(crate) values: Vec<String>,
}

/// The kind of an [`ObjectField`]'s value.
#[mcp_output]
#[serde(rename_all = "snake_case")]
pub(crate) enum ValueKind {
    /// Text (String, TextArea, Email, Page fields).
    Text,
    /// A whole number.
    Integer,
    /// A decimal number.
    Float,
    /// A boolean.
    Boolean,
    /// A date.
    Date,
    /// StaticList values.
    List,
    /// A password's value, never shown.
    Masked,
    /// No value.
    Unset,
}

/// The objects of one class on a document.
#[mcp_output]
pub(crate) struct ClassObjects {
    /// The class.
    pub(crate) class: String,
    /// The objects' numbers.
    pub(crate) numbers: Vec<u32>,
}

/// How much of a text value the structured content holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Texts {
    /// All of it (one object read by number, cut only by the caller's window).
    Whole,
    /// At most [`FRAGMENT_MAX_CHARS`] characters and `…`, as a query's lines show it.
    Capped,
}

impl Texts {
    fn show(self, text: &str) -> String {
        match (self, text.char_indices().nth(FRAGMENT_MAX_CHARS)) {
            (Self::Capped, Some((cut, _))) => format!("{}…", &text[..cut]),
            _ => text.to_owned(),
        }
    }
}

impl ObjectField {
    /// `value` of the field `name` (`None`: unset), a date shown date-only when `date_only`,
    /// texts as `texts` says.
    pub(crate) fn new(
        name: &str,
        value: Option<&FieldValue>,
        date_only: bool,
        texts: Texts,
    ) -> Self {
        let scalar = |kind, value: String| (kind, Some(value), Vec::new());
        let (kind, value, values) = match value {
            None => (ValueKind::Unset, None, Vec::new()),
            Some(FieldValue::Text(text)) => scalar(ValueKind::Text, texts.show(text)),
            Some(FieldValue::Integer(n)) => scalar(ValueKind::Integer, n.to_string()),
            Some(FieldValue::Float(n)) => scalar(ValueKind::Float, n.to_string()),
            Some(FieldValue::Boolean(b)) => scalar(ValueKind::Boolean, b.to_string()),
            Some(FieldValue::Date(date)) if date_only => {
                scalar(ValueKind::Date, date.date().to_string())
            }
            Some(FieldValue::Date(date)) => scalar(ValueKind::Date, iso_instant(*date)),
            Some(FieldValue::List(list)) => (
                ValueKind::List,
                None,
                list.iter().map(|value| texts.show(value)).collect(),
            ),
            Some(FieldValue::Masked) => (ValueKind::Masked, None, Vec::new()),
        };
        Self {
            name: name.to_owned(),
            kind,
            value,
            values,
        }
    }
}

/// `object` on `reference` at `version`, with the fields `names` (each told whether its
/// field is date-only), texts as `texts` says.
pub(crate) fn object_output(
    reference: &DocumentReference,
    version: Version,
    object: &ObjectRecord,
    names: &[(String, bool)],
    texts: Texts,
) -> ObjectOutput {
    ObjectOutput {
        reference: reference.to_string(),
        version: version.to_string(),
        class: object.class.clone(),
        number: object.number,
        fields: names
            .iter()
            .map(|(name, date_only)| {
                ObjectField::new(name, object.values.get(name), *date_only, texts)
            })
            .collect(),
    }
}

/// The inventory entries of `by_class`.
pub(crate) fn inventory(by_class: &BTreeMap<&str, Vec<u32>>) -> Vec<ClassObjects> {
    by_class
        .iter()
        .map(|(class, numbers)| ClassObjects {
            class: (*class).to_owned(),
            numbers: numbers.clone(),
        })
        .collect()
}
