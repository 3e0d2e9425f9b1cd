//! Object writes: the checks before the transaction, the values coerced to their fields, and
//! whether an update changes anything.
//!
//! A write of an object checks it ([`validate_object_write`], before the
//! transaction), reading the class in the transaction and coercing the values
//! ([`coerce_values`]), finding the object to update if a number is given, asking
//! [`holds_values`] and the touch's `untouched` whether anything changes, and only then touching
//! the document and storing the object (a new one takes the next number of its class on the
//! document) and each coerced value.

use std::collections::BTreeMap;

use crate::config::Limits;
use crate::error::Entity;
use crate::model::class::ClassDefinition;
use crate::model::object::FieldValue;
use crate::model::object::{ObjectDelete, ObjectWrite};
use crate::objects::coerce::{StoredValue, clears, coerce_value, decode_value};
use crate::objects::validation::check_value;
use crate::plan::class::{class_reference, refuse_reserved};
use crate::plan::owner::Touch;
use crate::reference::DocumentReference;
use crate::{Result, StoreError};

/// How an object write touches its document: it creates a missing one (empty).
pub(crate) fn object_touch(write: &ObjectWrite) -> Touch<'_> {
    Touch {
        reference: &write.reference,
        author: &write.author,
        comment: &write.comment,
        major: write.major,
        expected: write.expected,
        title: write.title.as_deref(),
        create: true,
        hidden_on_create: false,
    }
}

/// Checks an object write before any transaction; returns its class document. The reserved
/// configuration class is refused here, so no generic write ever reaches it.
pub(crate) fn validate_object_write(
    write: &ObjectWrite,
    limits: &Limits,
) -> Result<DocumentReference> {
    let class = class_reference(&write.class, write.reference.wiki())?;
    refuse_reserved(&class)?;
    object_touch(write).validate(limits)?;
    Ok(class)
}

/// [`validate_object_write`] for each write of a batch, each paired with its class document;
/// the first refusal refuses the batch.
pub(crate) fn validate_object_writes<'w>(
    writes: &'w [ObjectWrite],
    limits: &Limits,
) -> Result<Vec<(&'w ObjectWrite, DocumentReference)>> {
    writes
        .iter()
        .map(|write| Ok((write, validate_object_write(write, limits)?)))
        .collect()
}

/// Checks an object deletion before any transaction; returns its class document and the touch
/// of the holding document (a minor version, never a creation).
pub(crate) fn validate_object_delete<'d>(
    delete: &'d ObjectDelete,
    limits: &Limits,
) -> Result<(DocumentReference, Touch<'d>)> {
    let class = class_reference(&delete.class, delete.reference.wiki())?;
    refuse_reserved(&class)?;
    let touch = Touch::minor(
        &delete.reference,
        &delete.author,
        &delete.comment,
        delete.expected,
    )
    .validated(limits)?;
    Ok((class, touch))
}

/// The refusal of a write to a class that does not exist (or has no field).
pub(crate) fn unknown_class(class_document: &DocumentReference) -> StoreError {
    StoreError::not_found(Entity::Class, class_document.local())
}

/// The refusal of an update or deletion of an object that does not exist.
pub(crate) fn unknown_object(
    class: &str,
    number: u32,
    reference: &DocumentReference,
) -> StoreError {
    StoreError::not_found(
        Entity::Object,
        format!("{class} object {number} on {reference}"),
    )
}

/// One field's new value: `None` clears it (see [`clears`]).
pub(crate) type NewValue<'v> = (&'v str, Option<StoredValue>);

/// Every value held to its enabled field's validation rule and coerced to its stored form (an
/// empty value of a field that is not text clears it), in field-name order, then, when
/// `creating` a new object, the defaults of the fields not named; the first unknown field, bad
/// value or broken rule refuses the whole write. Password values come back sealed.
pub(crate) fn coerce_values<'v>(
    class: &'v ClassDefinition,
    values: &'v BTreeMap<String, String>,
    creating: bool,
) -> Result<Vec<NewValue<'v>>> {
    let mut coerced = values
        .iter()
        .map(|(name, raw)| {
            let field = class.require_field(name)?;
            check_value(field, raw)?;
            let value = if clears(field, raw) {
                None
            } else {
                Some(coerce_value(field, raw)?)
            };
            Ok((name.as_str(), value))
        })
        .collect::<Result<Vec<_>>>()?;
    if creating {
        for field in class.fields.iter().filter(|field| !field.disabled) {
            if let Some(default) = &field.rules.default
                && !values.contains_key(&field.name)
            {
                check_value(field, default)?;
                coerced.push((field.name.as_str(), Some(coerce_value(field, default)?)));
            }
        }
    }
    Ok(coerced)
}

/// Whether an object whose stored values are `stored` already holds each of `values` exactly
/// (clearing an unset field changes nothing). Values are compared as stored, after
/// coercion, so another spelling of a stored value (`" 3 "`, `"a, b"`, `2026-11-30T00:00:00Z`
/// for a date-only field's `2026-11-30`) matches. A Password value never
/// does: it is sealed with a fresh salt, and a "nothing changed" answer would otherwise confirm
/// the secret to whoever guessed it.
pub(crate) fn holds_values(values: &[NewValue<'_>], stored: &[(String, StoredValue)]) -> bool {
    values.iter().all(|(field, value)| {
        let held = stored.iter().find(|(name, _)| name == field);
        held.map(|(_, held)| held) == value.as_ref()
    })
}

/// What readers see of an object's stored values: those of the class's enabled fields, decoded
/// (Password values masked), and nothing when the class no longer exists, so a removed class can
/// never expose a sealed Password value. Values of removed fields stay stored, unseen.
pub(crate) fn visible_values(
    class: Option<&ClassDefinition>,
    stored: impl IntoIterator<Item = (String, StoredValue)>,
) -> BTreeMap<String, FieldValue> {
    let Some(class) = class else {
        return BTreeMap::new();
    };
    stored
        .into_iter()
        .filter_map(|(name, value)| {
            let field = class.field(&name)?;
            let value = decode_value(&field.field_type, value);
            Some((name, value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::class::{FieldDefinition, FieldType, NumberKind};
    use crate::model::rules::FieldRules;

    fn class() -> ClassDefinition {
        let field = |name: &str, field_type| FieldDefinition {
            name: name.into(),
            pretty_name: None,
            field_type,
            rules: FieldRules::default(),
            disabled: false,
        };
        ClassDefinition {
            name: "Tasks.TaskClass".into(),
            fields: vec![
                field("priority", FieldType::Number(NumberKind::Integer)),
                field("secret", FieldType::Password),
            ],
        }
    }

    #[test]
    fn another_spelling_of_a_stored_value_holds_but_a_password_never_does() {
        let values = BTreeMap::from([("priority".to_owned(), " 3 ".to_owned())]);
        let class = class();
        let coerced = coerce_values(&class, &values, false).unwrap_or_else(|e| panic!("{e}"));
        let priority = |n| vec![("priority".to_owned(), StoredValue::Integer(n))];
        assert!(holds_values(&coerced, &priority(3)));
        assert!(!holds_values(&coerced, &priority(4)));
        assert!(!holds_values(&coerced, &[]));

        let secret = BTreeMap::from([("secret".to_owned(), "hunter2".to_owned())]);
        let sealed = coerce_values(&class, &secret, false).unwrap_or_else(|e| panic!("{e}"));
        let again = coerce_values(&class, &secret, false).unwrap_or_else(|e| panic!("{e}"));
        let stored_seal: Vec<_> = sealed[0]
            .1
            .iter()
            .map(|v| ("secret".to_owned(), v.clone()))
            .collect();
        assert_eq!(stored_seal.len(), 1);
        assert!(!holds_values(&again, &stored_seal));
    }

    #[test]
    fn only_enabled_fields_of_an_existing_class_are_seen() {
        let stored = || {
            vec![
                ("priority".to_owned(), StoredValue::Integer(2)),
                ("secret".to_owned(), StoredValue::Text("sha256$x$y".into())),
                ("removed".to_owned(), StoredValue::Text("old".into())),
            ]
        };
        let seen = visible_values(Some(&class()), stored());
        assert_eq!(
            seen,
            BTreeMap::from([
                ("priority".to_owned(), FieldValue::Integer(2)),
                ("secret".to_owned(), FieldValue::Masked),
            ])
        );
        assert!(visible_values(None, stored()).is_empty());
    }

    #[test]
    fn an_unknown_field_refuses_the_whole_write() {
        let values = BTreeMap::from([
            ("priority".to_owned(), "1".to_owned()),
            ("nope".to_owned(), "x".to_owned()),
        ]);
        assert!(coerce_values(&class(), &values, false).is_err());
    }
}
