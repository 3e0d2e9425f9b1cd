//! Objects: numbered instances of a class on a document, with typed values.

use std::collections::BTreeMap;

use time::OffsetDateTime;

/// A value as read back from the store.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue {
    /// String, TextArea, Email and Page values.
    Text(String),
    /// Integer Number values.
    Integer(i64),
    /// Float Number values.
    Float(f64),
    /// Boolean values.
    Boolean(bool),
    /// Date values, in UTC.
    Date(OffsetDateTime),
    /// StaticList values (one element for a single select).
    List(Vec<String>),
    /// A Password value is set; what it is can never be read.
    Masked,
}

/// One object: its class, its number (per class per document) and its values by field name.
///
/// `values` holds only enabled fields; a value whose field was removed stays stored and comes back
/// if the field is added again.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectRecord {
    /// The class name (wiki-local full name of the class document).
    pub class: String,
    /// The object number, unique per class per document; numbers are never reused or shifted.
    pub number: u32,
    /// Values of enabled fields that are set.
    pub values: BTreeMap<String, FieldValue>,
}
