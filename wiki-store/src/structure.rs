//! The structured part of a revision (objects and attachments), computed alike for every
//! backend: the record a write leaves on its revision, and the diff of two records.
//!
//! A write inserts its revision before it changes objects or attachments (the owner's touch
//! comes first), so a backend records the structure when the transaction is about to commit,
//! or when the same transaction is about to write the next revision of the same row; either
//! way the record is the state that revision left.

use std::collections::{BTreeMap, BTreeSet};

use sha2::{Digest, Sha256};
use time::format_description::well_known::Rfc3339;

use crate::Result;
use crate::model::attachment::AttachmentInfo;
use crate::model::class::{ClassDefinition, FieldType};
use crate::model::history::Revision;
use crate::model::object::FieldValue;
use crate::model::structure::{
    AttachmentState, FieldChange, ObjectState, Structure, StructureChange, StructureComparison,
    ValueChange,
};
use crate::model::version::Version;
use crate::objects::coerce::{StoredValue, decode_value};
use crate::stored::corrupt;

/// One object as a backend read it: class, number, stored values.
pub(crate) type StoredObject = (String, u32, Vec<(String, StoredValue)>);

/// Adds one row of a backend's objects-with-values join (ordered by class and number) to
/// `objects`: a new object when the class or number changes, and its value if the row has one.
pub(crate) fn push_row(
    objects: &mut Vec<StoredObject>,
    class: String,
    number: u32,
    value: Option<(String, StoredValue)>,
) {
    if objects
        .last()
        .is_none_or(|(last, n, _)| *last != class || *n != number)
    {
        objects.push((class, number, Vec::new()));
    }
    if let (Some(value), Some((.., values))) = (value, objects.last_mut()) {
        values.push(value);
    }
}

/// What a revision records of each current attachment.
pub(crate) fn attachment_states(current: Vec<AttachmentInfo>) -> Vec<AttachmentState> {
    current
        .into_iter()
        .map(|info| AttachmentState {
            name: info.name,
            version: info.version,
            size: info.size,
        })
        .collect()
}

/// The record of one object, its values read through `class` (`None`: the class is gone, and
/// so are the values, as readers see them). Password values become fingerprints.
pub(crate) fn object_state(
    class_name: String,
    number: u32,
    class: Option<&ClassDefinition>,
    stored: Vec<(String, StoredValue)>,
) -> ObjectState {
    let mut values = BTreeMap::new();
    let mut secrets = BTreeMap::new();
    for (name, value) in stored {
        let Some(field) = class.and_then(|class| class.field(&name)) else {
            continue;
        };
        if matches!(field.field_type, FieldType::Password) {
            secrets.insert(name, fingerprint(&value));
        } else {
            values.insert(name, value_text(decode_value(&field.field_type, value)));
        }
    }
    ObjectState {
        class: class_name,
        number,
        values,
        secrets,
    }
}

/// A digest of a sealed Password value: equal values give equal fingerprints, and the value
/// (itself a salted hash) cannot be read back from it.
fn fingerprint(value: &StoredValue) -> String {
    let text = match value {
        StoredValue::Text(text) => text.clone(),
        StoredValue::Integer(n) => n.to_string(),
        StoredValue::Real(x) => x.to_string(),
    };
    let digest = Sha256::digest(text.as_bytes());
    digest[..12]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// A readable value as text, the way object tools print it.
fn value_text(value: FieldValue) -> String {
    match value {
        FieldValue::Text(text) => text,
        FieldValue::Integer(n) => n.to_string(),
        FieldValue::Float(x) => x.to_string(),
        FieldValue::Boolean(flag) => flag.to_string(),
        FieldValue::Date(date) => date.format(&Rfc3339).unwrap_or_else(|_| date.to_string()),
        FieldValue::List(items) => items.join("|"),
        FieldValue::Masked => String::new(),
    }
}

/// The record kept on a revision, as JSON.
pub(crate) fn encode(structure: &Structure) -> Result<String> {
    serde_json::to_string(structure).map_err(|_| corrupt("revision structure"))
}

/// A revision's record read back (`None`: saved before revisions recorded structure).
pub(crate) fn decode(stored: Option<&str>) -> Result<Option<Structure>> {
    stored
        .map(|text| serde_json::from_str(text).map_err(|_| corrupt("revision structure")))
        .transpose()
}

/// How the structured parts of `old` and `new` (two revisions of one row) compare.
pub(crate) fn compare(old: &Revision, new: &Revision, translation: bool) -> StructureComparison {
    if translation {
        return StructureComparison::NotApplicable;
    }
    match (&old.structure, &new.structure) {
        (Some(before), Some(after)) => StructureComparison::Compared(diff(before, after)),
        _ => StructureComparison::Unrecorded(
            [old, new]
                .into_iter()
                .filter(|revision| revision.structure.is_none())
                .map(|revision| revision.info.version)
                .collect::<BTreeSet<Version>>()
                .into_iter()
                .collect(),
        ),
    }
}

/// The changes from `old` to `new`: objects removed, changed, added (by class and number), then
/// attachments (by name).
pub(crate) fn diff(old: &Structure, new: &Structure) -> Vec<StructureChange> {
    let mut changes = Vec::new();
    let key = |object: &ObjectState| (object.class.clone(), object.number);
    let before: BTreeMap<_, _> = old.objects.iter().map(|o| (key(o), o)).collect();
    let after: BTreeMap<_, _> = new.objects.iter().map(|o| (key(o), o)).collect();
    let keys: BTreeSet<_> = before.keys().chain(after.keys()).cloned().collect();
    for (class, number) in keys {
        let k = (class.clone(), number);
        match (before.get(&k), after.get(&k)) {
            (Some(_), None) => changes.push(StructureChange::ObjectRemoved { class, number }),
            (None, Some(added)) => changes.push(StructureChange::ObjectAdded {
                class,
                number,
                values: field_changes(&ObjectState::empty(), added),
            }),
            (Some(was), Some(is)) => {
                let fields = field_changes(was, is);
                if !fields.is_empty() {
                    changes.push(StructureChange::ObjectChanged {
                        class,
                        number,
                        fields,
                    });
                }
            }
            (None, None) => {}
        }
    }
    let before: BTreeMap<_, _> = old.attachments.iter().map(|a| (&a.name, a)).collect();
    let after: BTreeMap<_, _> = new.attachments.iter().map(|a| (&a.name, a)).collect();
    let names: BTreeSet<_> = before.keys().chain(after.keys()).copied().collect();
    for name in names {
        match (before.get(name), after.get(name)) {
            (Some(was), None) => changes.push(StructureChange::AttachmentRemoved {
                name: name.clone(),
                size: was.size,
                version: was.version,
            }),
            (None, Some(is)) => changes.push(StructureChange::AttachmentAdded {
                name: name.clone(),
                size: is.size,
                version: is.version,
            }),
            (Some(was), Some(is)) if was.version != is.version || was.size != is.size => {
                changes.push(StructureChange::AttachmentReplaced {
                    name: name.clone(),
                    old: (was.version, was.size),
                    new: (is.version, is.size),
                });
            }
            _ => {}
        }
    }
    changes
}

impl ObjectState {
    fn empty() -> Self {
        Self {
            class: String::new(),
            number: 0,
            values: BTreeMap::new(),
            secrets: BTreeMap::new(),
        }
    }
}

/// The fields whose value differs between `was` and `is`, by name; a Password field says only
/// that it changed.
fn field_changes(was: &ObjectState, is: &ObjectState) -> Vec<FieldChange> {
    let names: BTreeSet<&String> = [&was.values, &is.values, &was.secrets, &is.secrets]
        .into_iter()
        .flat_map(BTreeMap::keys)
        .collect();
    names
        .into_iter()
        .filter_map(|name| {
            let secret = was.secrets.contains_key(name) || is.secrets.contains_key(name);
            let change = if secret {
                (was.secrets.get(name) != is.secrets.get(name)).then_some(ValueChange::Secret)
            } else {
                let (old, new) = (was.values.get(name), is.values.get(name));
                (old != new).then(|| ValueChange::Value {
                    old: old.cloned(),
                    new: new.cloned(),
                })
            }?;
            Some(FieldChange {
                field: name.clone(),
                change,
            })
        })
        .collect()
}
