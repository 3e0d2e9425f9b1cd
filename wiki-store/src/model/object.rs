//! Objects: numbered instances of a class on a document, with typed values.

use std::collections::BTreeMap;

use time::OffsetDateTime;

use crate::model::class::FieldType;
use crate::model::document::{Expected, SaveOutcome};
use crate::model::rules::FieldRules;
use crate::model::version::Version;
use crate::reference::DocumentReference;

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

/// A request to create or update one object; see [`crate::api::ObjectStore::write_object`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectWrite {
    /// The document that holds the object (created, empty, if it does not exist).
    pub reference: DocumentReference,
    /// The class (wiki-local name; the class lives in the document's wiki).
    pub class: String,
    /// The object to update; `None` creates the next number.
    pub number: Option<u32>,
    /// Field values as text, coerced to each field's type and held to its validation rule.
    /// Fields not named keep their value; on a new object they take their default, if any.
    pub values: BTreeMap<String, String>,
    /// A new document title, if any.
    pub title: Option<String>,
    /// Who writes.
    pub author: String,
    /// The document's version comment.
    pub comment: String,
    /// A major document version instead of a minor one.
    pub major: bool,
    /// The compare-and-set condition on the document's default row.
    pub expected: Expected,
}

/// What [`crate::api::ObjectStore::write_object`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectWriteOutcome {
    /// The object's number.
    pub number: u32,
    /// Whether the object was created (else updated).
    pub created_object: bool,
    /// What happened to the document: created at 1.1, updated to a new version, or
    /// [`SaveOutcome::Unchanged`] when the object already held the values (nothing written).
    pub document: SaveOutcome,
}

/// A request to delete one object; see [`crate::api::ObjectStore::delete_object`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectDelete {
    /// The document holding the object.
    pub reference: DocumentReference,
    /// The class (wiki-local name).
    pub class: String,
    /// The object number; other objects keep theirs.
    pub number: u32,
    /// Who deletes.
    pub author: String,
    /// The document's version comment.
    pub comment: String,
    /// The compare-and-set condition on the document's default row.
    pub expected: Expected,
}

/// A change to a class's fields; see [`crate::api::ObjectStore::change_class`].
#[derive(Debug, Clone, PartialEq)]
pub enum FieldChange {
    /// Adds a field at the end (the first addition creates the class). Adding a removed field's
    /// name again re-enables it, values included, with the new type.
    Add {
        /// The field name.
        name: String,
        /// Its type and attributes.
        field_type: FieldType,
        /// Its default and validation rule (checked against the type before anything is
        /// written).
        rules: FieldRules,
        /// A human label.
        pretty_name: Option<String>,
    },
    /// Changes a field's label and/or attributes, type-specific or rules (not its type); an
    /// empty rule attribute clears the rule.
    Modify {
        /// The field name.
        name: String,
        /// A new label (`Some("")` clears it).
        pretty_name: Option<String>,
        /// Attributes to set, merged over the current ones.
        attributes: BTreeMap<String, String>,
    },
    /// Hides a field and its values, reversibly (adding the name back shows them again).
    Remove {
        /// The field name.
        name: String,
    },
}

/// A class change with its document-save parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassChange {
    /// The class document (the class name is its local reference).
    pub class_document: DocumentReference,
    /// What changes.
    pub change: FieldChange,
    /// Who writes.
    pub author: String,
    /// The document's version comment.
    pub comment: String,
    /// A major document version instead of a minor one.
    pub major: bool,
    /// The compare-and-set condition on the class document's default row.
    pub expected: Expected,
}

/// One object found by a query, on a document the caller's `authorize` accepted.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectHit {
    /// The document holding the object.
    pub reference: DocumentReference,
    /// The document's current version.
    pub version: Version,
    /// The object, with every enabled field's value (Password values masked).
    pub object: ObjectRecord,
}

/// A page of authorized query results.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectPage {
    /// The hits of the requested page.
    pub hits: Vec<ObjectHit>,
    /// Authorized matches counted (within the scan ceiling).
    pub total: usize,
    /// Whether the scan stopped at the ceiling: `total` is then a lower bound (`N+`).
    pub truncated: bool,
}

/// The objects of one class in a wiki, for a class catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassUsage {
    /// The class name.
    pub class: String,
    /// How many objects of it exist in the wiki (an upper bound for any one reader).
    pub objects: u64,
}
