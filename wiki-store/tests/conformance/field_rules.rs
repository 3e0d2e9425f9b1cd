//! Field rules: defaults and validation patterns stored with a class, changed with
//! modify_field, applied to new objects and enforced on every object write.

use std::collections::BTreeMap;

use wiki_store::model::class::FieldType;
use wiki_store::model::document::{Expected, SaveOutcome};
use wiki_store::model::object::{ClassChange, FieldChange, FieldValue};
use wiki_store::model::rules::{FieldRules, Validation};
use wiki_store::objects::validation::field_spec;
use wiki_store::testing::backend_test;
use wiki_store::{InvalidInput, Store, StoreError};

use crate::harness::{Fixture, reference, v};
use crate::objects::{CLASS, write};

fn attributes(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn change(change: FieldChange) -> ClassChange {
    ClassChange {
        class_document: reference(CLASS),
        change,
        author: "admin".into(),
        comment: "schema".into(),
        major: false,
        expected: Expected::Any,
    }
}

fn add(
    store: &dyn Store,
    name: &str,
    type_name: &str,
    pairs: &[(&str, &str)],
) -> Result<SaveOutcome, StoreError> {
    let (field_type, rules) = field_spec(name, type_name, &attributes(pairs))?;
    store.change_class(&change(FieldChange::Add {
        name: name.into(),
        field_type,
        rules,
        pretty_name: None,
    }))
}

fn modify(
    store: &dyn Store,
    name: &str,
    pairs: &[(&str, &str)],
) -> Result<SaveOutcome, StoreError> {
    store.change_class(&change(FieldChange::Modify {
        name: name.into(),
        pretty_name: None,
        attributes: attributes(pairs),
    }))
}

fn rules_of(store: &dyn Store, name: &str) -> FieldRules {
    let class = store.class(&reference(CLASS)).unwrap().unwrap();
    class.field(name).unwrap().rules.clone()
}

/// `code` (three capitals, with a message) and `status` (a list defaulting to `open`).
fn ruled_class(store: &dyn Store) {
    add(
        store,
        "code",
        "String",
        &[
            ("validation_regexp", "^[A-Z]{3}$"),
            ("validation_message", "Use three capital letters"),
        ],
    )
    .unwrap();
    add(
        store,
        "status",
        "StaticList",
        &[("values", "open|closed"), ("default", "open")],
    )
    .unwrap();
}

#[backend_test]
fn rules_are_stored_with_the_class_and_modified_like_attributes(db: &Fixture) {
    let store = db.store();
    ruled_class(&*store);
    assert_eq!(
        rules_of(&*store, "code"),
        FieldRules {
            default: None,
            validation: Some(Validation {
                regexp: "^[A-Z]{3}$".into(),
                message: Some("Use three capital letters".into()),
            }),
        }
    );
    assert_eq!(rules_of(&*store, "status").default.as_deref(), Some("open"));
    let class = store.class(&reference(CLASS)).unwrap().unwrap();
    assert_eq!(
        class.field("status").unwrap().field_type,
        FieldType::StaticList {
            values: vec!["open".into(), "closed".into()],
            multiselect: false,
        },
        "rule attributes do not disturb the type's own"
    );

    // The same rules again change nothing; a new default saves; "" clears.
    assert!(matches!(
        modify(&*store, "status", &[("default", "open")]).unwrap(),
        SaveOutcome::Unchanged { .. }
    ));
    modify(&*store, "status", &[("default", "closed")]).unwrap();
    assert_eq!(
        rules_of(&*store, "status").default.as_deref(),
        Some("closed")
    );
    modify(&*store, "code", &[("validation_regexp", "")]).unwrap();
    assert_eq!(rules_of(&*store, "code"), FieldRules::default());

    // Refused: a default the type refuses, a default the pattern refuses, a pattern that does
    // not compile, a message with no pattern. Nothing is saved for any of them.
    let before = store.document(&reference(CLASS), None).unwrap().unwrap();
    assert!(matches!(
        modify(&*store, "status", &[("default", "maybe")]),
        Err(StoreError::Invalid(InvalidInput::FieldValue { field, .. })) if field == "default"
    ));
    assert!(matches!(
        modify(&*store, "status", &[("validation_regexp", "^o")]),
        Err(StoreError::Invalid(InvalidInput::FieldRule { .. }))
    ));
    assert!(matches!(
        modify(&*store, "code", &[("validation_regexp", "([")]),
        Err(StoreError::Invalid(InvalidInput::AttributeValue {
            attribute: "validation_regexp",
            ..
        }))
    ));
    assert!(matches!(
        modify(&*store, "code", &[("validation_message", "why")]),
        Err(StoreError::Invalid(InvalidInput::AttributeValue {
            attribute: "validation_message",
            ..
        }))
    ));
    assert!(matches!(
        add(&*store, "pin", "Password", &[("default", "1234")]),
        Err(StoreError::Invalid(InvalidInput::FieldAttribute { .. }))
    ));
    let after = store.document(&reference(CLASS), None).unwrap().unwrap();
    assert_eq!(
        after.version, before.version,
        "refused changes save nothing"
    );
}

#[backend_test]
fn object_writes_are_held_to_the_pattern_and_new_objects_take_defaults(db: &Fixture) {
    let store = db.store();
    ruled_class(&*store);
    let refused = store.write_object(&write("Tasks.One", None, &[("code", "abc")]));
    match refused {
        Err(StoreError::Invalid(InvalidInput::FieldRule {
            field,
            regexp,
            message,
        })) => {
            assert_eq!(field, "code");
            assert_eq!(regexp, "^[A-Z]{3}$");
            assert_eq!(message.as_deref(), Some("Use three capital letters"));
        }
        other => panic!("expected a validation refusal, got {other:?}"),
    }
    assert!(
        store
            .document(&reference("Tasks.One"), None)
            .unwrap()
            .is_none(),
        "a refused write creates nothing"
    );

    let created = store
        .write_object(&write("Tasks.One", None, &[("code", "ABC")]))
        .unwrap();
    assert_eq!(created.document, SaveOutcome::Created { version: v("1.1") });
    let objects = store.objects(&reference("Tasks.One")).unwrap();
    assert_eq!(
        objects[0].values.get("status"),
        Some(&FieldValue::List(vec!["open".into()])),
        "a new object takes the default of a field it does not name"
    );
    store
        .write_object(&write("Tasks.One", None, &[("status", "closed")]))
        .unwrap();
    let objects = store.objects(&reference("Tasks.One")).unwrap();
    assert_eq!(
        objects[1].values.get("status"),
        Some(&FieldValue::List(vec!["closed".into()])),
        "a value given wins over the default"
    );
    assert_eq!(objects[1].values.get("code"), None, "no default, no value");

    // An update never applies defaults, and is held to the pattern too.
    modify(&*store, "status", &[("default", "closed")]).unwrap();
    store
        .write_object(&write("Tasks.One", Some(0), &[("code", "XYZ")]))
        .unwrap();
    let objects = store.objects(&reference("Tasks.One")).unwrap();
    assert_eq!(
        objects[0].values.get("status"),
        Some(&FieldValue::List(vec!["open".into()]))
    );
    assert!(matches!(
        store.write_object(&write("Tasks.One", Some(0), &[("code", "XYZW")])),
        Err(StoreError::Invalid(InvalidInput::FieldRule { .. }))
    ));
    assert_eq!(
        store.objects(&reference("Tasks.One")).unwrap()[0]
            .values
            .get("code"),
        Some(&FieldValue::Text("XYZ".into()))
    );
}
