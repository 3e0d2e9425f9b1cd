//! Writes that change nothing write nothing: an identical attachment upload, an object update to
//! the values it holds, a field modification to what the field already is. Like an identical
//! document save, each leaves every version, the history and the change sequence as they were,
//! and emits no event; a stale compare-and-set is still refused. The MCP configuration, saved as
//! an object, follows.

use std::collections::BTreeMap;

use wiki_store::model::attachment::AttachmentWrite;
use wiki_store::model::class::{FieldType, NumberKind};
use wiki_store::model::document::{DocumentSave, Expected, SaveOutcome};
use wiki_store::model::mcp_config::McpConfig;
use wiki_store::model::object::{ClassChange, FieldChange, ObjectWrite};
use wiki_store::model::version::Version;
use wiki_store::model::wiki::WikiId;
use wiki_store::testing::backend_test;
use wiki_store::{Store, StoreError};

use crate::harness::{Fixture, count_events, reference, v};

use crate::objects::CLASS;

/// Everything a write could leave behind, to compare before and after.
#[derive(Debug, PartialEq, Eq)]
struct Footprint {
    change_seq: u64,
    version: Option<Version>,
    revisions: u64,
    attachment_versions: Vec<Version>,
}

fn footprint(store: &dyn Store, document: &str) -> Footprint {
    let reference = reference(document);
    Footprint {
        change_seq: store.change_seq().unwrap(),
        version: store.document(&reference, None).unwrap().map(|d| d.version),
        revisions: store
            .history(&reference, None, 0, 1)
            .unwrap()
            .map_or(0, |page| page.total),
        attachment_versions: store
            .attachment_history(&reference, "notes.txt")
            .unwrap()
            .iter()
            .map(|a| a.version)
            .collect(),
    }
}

fn upload(content: &[u8], author: &str, expected: Expected) -> AttachmentWrite {
    AttachmentWrite {
        reference: reference("Docs.Guide"),
        name: "notes.txt".into(),
        content: content.to_vec(),
        author: author.into(),
        comment: format!("[AI] upload by {author}"),
        expected,
    }
}

/// Docs.Guide at 1.2 with notes.txt 1.1 holding `one`.
fn guide_with_notes(store: &dyn Store) {
    store
        .save_document(&DocumentSave::new(reference("Docs.Guide"), "text", "bob"))
        .unwrap();
    store
        .write_attachment(&upload(b"one", "alice", Expected::Version(v("1.1"))))
        .unwrap();
}

#[backend_test]
fn an_identical_upload_writes_no_version_and_emits_nothing(db: &Fixture) {
    let store = db.store();
    guide_with_notes(&*store);
    let before = footprint(&*store, "Docs.Guide");
    let (_subscription, events) = count_events(&*store);

    let again = store
        .write_attachment(&upload(b"one", "carol", Expected::Version(v("1.2"))))
        .unwrap();

    assert_eq!(again.attachment_version, v("1.1"));
    assert!(!again.created_attachment);
    assert_eq!(again.document, SaveOutcome::Unchanged { version: v("1.2") });
    assert_eq!(footprint(&*store, "Docs.Guide"), before);
    assert_eq!(*events.lock().unwrap(), 0);
    let current = store
        .attachment(&reference("Docs.Guide"), "notes.txt")
        .unwrap()
        .unwrap();
    assert_eq!(
        current.author, "alice",
        "the first upload's metadata is kept"
    );
}

#[backend_test]
fn different_bytes_of_the_same_size_are_a_new_version(db: &Fixture) {
    let store = db.store();
    guide_with_notes(&*store);
    let (_subscription, events) = count_events(&*store);

    let changed = store
        .write_attachment(&upload(b"two", "alice", Expected::Version(v("1.2"))))
        .unwrap();

    assert_eq!(changed.attachment_version, v("1.2"));
    assert_eq!(
        changed.document,
        SaveOutcome::Updated {
            previous: v("1.2"),
            version: v("1.3")
        }
    );
    assert_eq!(*events.lock().unwrap(), 1);
    // Going back to an older version's bytes is a change too: only the current version counts.
    let back = store
        .write_attachment(&upload(b"one", "alice", Expected::Version(v("1.3"))))
        .unwrap();
    assert_eq!(back.attachment_version, v("1.3"));
    assert_eq!(
        store
            .attachment_content(&reference("Docs.Guide"), "notes.txt", None)
            .unwrap()
            .map(|(_, bytes)| bytes),
        Some(b"one".to_vec())
    );
}

#[backend_test]
fn an_identical_upload_on_a_stale_version_is_still_a_conflict(db: &Fixture) {
    let store = db.store();
    guide_with_notes(&*store);
    let before = footprint(&*store, "Docs.Guide");

    let stale = store.write_attachment(&upload(b"one", "alice", Expected::Version(v("1.1"))));

    assert!(matches!(
        stale,
        Err(StoreError::VersionConflict {
            expected: Some(expected),
            actual: Some(actual)
        }) if expected == v("1.1") && actual == v("1.2")
    ));
    assert_eq!(footprint(&*store, "Docs.Guide"), before);
}

fn class_change(change: FieldChange, expected: Expected) -> ClassChange {
    ClassChange {
        class_document: reference(CLASS),
        change,
        author: "admin".into(),
        comment: "[AI] schema".into(),
        major: false,
        expected,
    }
}

fn add(store: &dyn Store, name: &str, field_type: FieldType, pretty_name: Option<&str>) {
    store
        .change_class(&class_change(
            FieldChange::Add {
                rules: Default::default(),
                name: name.into(),
                field_type,
                pretty_name: pretty_name.map(str::to_owned),
            },
            Expected::Any,
        ))
        .unwrap();
}

/// Tasks.TaskClass at 1.5: title, priority, due (date only), tags (multi-select a|b), secret.
fn task_class(store: &dyn Store) {
    add(store, "title", FieldType::String, None);
    add(
        store,
        "priority",
        FieldType::Number(NumberKind::Integer),
        None,
    );
    add(store, "due", FieldType::Date { date_only: true }, None);
    let tags = FieldType::StaticList {
        values: vec!["a".into(), "b".into()],
        multiselect: true,
    };
    add(store, "tags", tags, Some("Tags"));
    add(store, "secret", FieldType::Password, None);
}

fn modify(pretty_name: Option<&str>, attributes: &[(&str, &str)]) -> FieldChange {
    FieldChange::Modify {
        name: "tags".into(),
        pretty_name: pretty_name.map(str::to_owned),
        attributes: attributes
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect::<BTreeMap<_, _>>(),
    }
}

#[backend_test]
fn modifying_a_field_to_what_it_already_is_writes_nothing(db: &Fixture) {
    let store = db.store();
    task_class(&*store);
    let before = footprint(&*store, CLASS);
    assert_eq!(before.version, Some(v("1.5")));
    let (_subscription, events) = count_events(&*store);

    // The same list spelled differently, the same flag, the same label.
    let same = modify(Some("Tags"), &[("values", " a, b "), ("multiselect", "1")]);
    let outcome = store
        .change_class(&class_change(same, Expected::Version(v("1.5"))))
        .unwrap();

    assert_eq!(outcome, SaveOutcome::Unchanged { version: v("1.5") });
    assert_eq!(footprint(&*store, CLASS), before);
    assert_eq!(*events.lock().unwrap(), 0);

    let stale = store.change_class(&class_change(
        modify(Some("Tags"), &[]),
        Expected::Version(v("1.4")),
    ));
    assert!(matches!(stale, Err(StoreError::VersionConflict { .. })));

    let relabelled = store
        .change_class(&class_change(
            modify(Some("Labels"), &[]),
            Expected::Version(v("1.5")),
        ))
        .unwrap();
    assert_eq!(relabelled.version(), v("1.6"));
    let single = store
        .change_class(&class_change(
            modify(None, &[("multiselect", "false")]),
            Expected::Version(v("1.6")),
        ))
        .unwrap();
    assert_eq!(single.version(), v("1.7"));
    assert_eq!(*events.lock().unwrap(), 2);
}

fn object_write(number: Option<u32>, values: &[(&str, &str)], expected: Expected) -> ObjectWrite {
    ObjectWrite {
        expected,
        ..crate::objects::write("Tasks.One", number, values)
    }
}

/// Tasks.One at 1.1 holding object 0 with a title, a priority, a due date and tags.
fn task_one(store: &dyn Store) {
    task_class(store);
    let values = [
        ("title", "Plan"),
        ("priority", "3"),
        ("due", "2026-11-30"),
        ("tags", "a|b"),
    ];
    store
        .write_object(&object_write(None, &values, Expected::Absent))
        .unwrap();
}

#[backend_test]
fn updating_an_object_to_the_values_it_holds_writes_nothing(db: &Fixture) {
    let store = db.store();
    task_one(&*store);
    let before = footprint(&*store, "Tasks.One");
    let (_subscription, events) = count_events(&*store);

    // Other spellings of the stored values: compared as stored, after coercion.
    let mut same = object_write(
        Some(0),
        &[
            ("title", "Plan"),
            ("priority", " 3 "),
            ("due", "2026-11-30T00:00:00Z"),
            ("tags", "a, b"),
        ],
        Expected::Version(v("1.1")),
    );
    same.title = Some(String::new());
    let outcome = store.write_object(&same).unwrap();

    assert_eq!(
        (outcome.number, outcome.created_object, outcome.document),
        (0, false, SaveOutcome::Unchanged { version: v("1.1") })
    );
    assert_eq!(footprint(&*store, "Tasks.One"), before);
    assert_eq!(*events.lock().unwrap(), 0);

    same.expected = Expected::Absent;
    assert!(matches!(
        store.write_object(&same),
        Err(StoreError::VersionConflict { .. })
    ));
    same.expected = Expected::Version(v("1.1"));
    same.title = Some("Retitled".into());
    assert_eq!(
        store.write_object(&same).unwrap().document.version(),
        v("1.2"),
        "a new title is a change"
    );
    let changed = object_write(Some(0), &[("priority", "4")], Expected::Version(v("1.2")));
    assert_eq!(
        store.write_object(&changed).unwrap().document.version(),
        v("1.3")
    );
    assert_eq!(*events.lock().unwrap(), 2);
}

#[backend_test]
fn setting_a_password_again_is_always_a_write(db: &Fixture) {
    let store = db.store();
    task_one(&*store);
    let secret = |expected| object_write(Some(0), &[("secret", "hunter2")], expected);
    store
        .write_object(&secret(Expected::Version(v("1.1"))))
        .unwrap();
    // Password values are sealed with a fresh salt: a "no changes" answer would confirm the
    // secret, so the same secret saves again.
    let again = store
        .write_object(&secret(Expected::Version(v("1.2"))))
        .unwrap();
    assert_eq!(again.document.version(), v("1.3"));
}

#[backend_test]
fn a_batch_advances_the_sequence_unless_every_write_is_unchanged(db: &Fixture) {
    let store = db.store();
    task_one(&*store);
    let unchanged = object_write(Some(0), &[("title", "Plan")], Expected::Any);
    let changed = object_write(Some(0), &[("title", "Ship")], Expected::Any);
    let start = store.change_seq().unwrap();

    let outcomes = store
        .write_objects(&[unchanged.clone(), unchanged.clone()])
        .unwrap();
    assert!(
        outcomes
            .iter()
            .all(|o| matches!(o.document, SaveOutcome::Unchanged { .. }))
    );
    assert_eq!(store.change_seq().unwrap(), start);

    let outcomes = store.write_objects(&[unchanged, changed]).unwrap();
    assert_eq!(
        outcomes.iter().map(|o| o.document).collect::<Vec<_>>(),
        [
            SaveOutcome::Unchanged { version: v("1.1") },
            SaveOutcome::Updated {
                previous: v("1.1"),
                version: v("1.2")
            }
        ]
    );
    assert!(store.change_seq().unwrap() > start);
}

#[backend_test]
fn saving_the_same_configuration_again_writes_nothing(db: &Fixture) {
    let store = db.store();
    let config = McpConfig {
        enabled: false,
        ..McpConfig::default()
    };
    let first = store
        .set_mcp_config(&WikiId::main(), &config, "admin")
        .unwrap();
    let start = store.change_seq().unwrap();

    let again = store
        .set_mcp_config(&WikiId::main(), &config, "admin")
        .unwrap();

    assert_eq!(
        again,
        SaveOutcome::Unchanged {
            version: first.version()
        }
    );
    assert_eq!(store.change_seq().unwrap(), start);
}
