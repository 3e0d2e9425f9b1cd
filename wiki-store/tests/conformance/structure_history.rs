//! Object and attachment changes in history: every revision records its document's structured
//! part, and a diff compares two records.

use wiki_store::Store;
use wiki_store::model::attachment::{AttachmentDelete, AttachmentWrite};
use wiki_store::model::document::{DocumentSave, Expected};
use wiki_store::model::locale::Locale;
use wiki_store::model::object::ObjectDelete;
use wiki_store::model::structure::{
    FieldChange, StructureChange, StructureComparison, ValueChange,
};
use wiki_store::model::trash::DocumentDelete;
use wiki_store::model::version::Version;
use wiki_store::testing::backend_test;

use crate::harness::{Fixture, reference, v};
use crate::objects::{CLASS, task_class, write};

const PAGE: &str = "Notes.Page";

fn changes(store: &dyn Store, from: &str, to: &str) -> StructureComparison {
    store
        .diff(&reference(PAGE), None, v(from), v(to))
        .unwrap()
        .structure
}

fn current(store: &dyn Store) -> Version {
    store
        .document(&reference(PAGE), None)
        .unwrap()
        .unwrap()
        .version
}

fn value(field: &str, old: Option<&str>, new: Option<&str>) -> FieldChange {
    FieldChange {
        field: field.into(),
        change: ValueChange::Value {
            old: old.map(str::to_owned),
            new: new.map(str::to_owned),
        },
    }
}

fn secret(field: &str) -> FieldChange {
    FieldChange {
        field: field.into(),
        change: ValueChange::Secret,
    }
}

fn upload(name: &str, content: &[u8]) -> AttachmentWrite {
    AttachmentWrite {
        reference: reference(PAGE),
        name: name.into(),
        content: content.to_vec(),
        author: "alice".into(),
        comment: format!("[AI] uploaded {name}"),
        expected: Expected::Any,
    }
}

#[backend_test]
fn each_object_and_attachment_change_shows_in_the_diff_of_its_revision(db: &Fixture) {
    let store = db.store();
    task_class(&*store);
    store
        .write_object(&write(
            PAGE,
            None,
            &[("title", "first"), ("priority", "2"), ("secret", "hunter2")],
        ))
        .unwrap();
    let created = current(&*store);
    assert_eq!(created, v("1.1"));

    store
        .write_object(&write(
            PAGE,
            Some(0),
            &[
                ("title", "second"),
                ("secret", "swordfish"),
                ("done", "true"),
            ],
        ))
        .unwrap();
    assert_eq!(
        changes(&*store, "1.1", "1.2"),
        StructureComparison::Compared(vec![StructureChange::ObjectChanged {
            class: CLASS.into(),
            number: 0,
            fields: vec![
                value("done", None, Some("true")),
                secret("secret"),
                value("title", Some("first"), Some("second")),
            ],
        }])
    );

    store.write_attachment(&upload("a.txt", b"abc")).unwrap();
    store.write_attachment(&upload("a.txt", b"abcdef")).unwrap();
    store.write_attachment(&upload("b.txt", b"b")).unwrap();
    assert_eq!(
        changes(&*store, "1.2", "1.3"),
        StructureComparison::Compared(vec![StructureChange::AttachmentAdded {
            name: "a.txt".into(),
            size: 3,
            version: v("1.1"),
        }])
    );
    assert_eq!(
        changes(&*store, "1.3", "1.4"),
        StructureComparison::Compared(vec![StructureChange::AttachmentReplaced {
            name: "a.txt".into(),
            old: (v("1.1"), 3),
            new: (v("1.2"), 6),
        }])
    );
    store
        .delete_attachment(&AttachmentDelete {
            reference: reference(PAGE),
            name: "a.txt".into(),
            author: "alice".into(),
            comment: "[AI] deleted attachment a.txt".into(),
            expected: Expected::Any,
        })
        .unwrap();
    assert_eq!(
        changes(&*store, "1.5", "1.6"),
        StructureComparison::Compared(vec![StructureChange::AttachmentRemoved {
            name: "a.txt".into(),
            size: 6,
            version: v("1.2"),
        }])
    );

    store
        .save_document(&DocumentSave::new(reference(PAGE), "text only", "alice"))
        .unwrap();
    assert_eq!(
        changes(&*store, "1.6", "1.7"),
        StructureComparison::Compared(vec![]),
        "a text save changes no object or attachment"
    );
    store
        .delete_object(&ObjectDelete {
            reference: reference(PAGE),
            class: CLASS.into(),
            number: 0,
            author: "alice".into(),
            comment: "[AI] deleted object".into(),
            expected: Expected::Any,
        })
        .unwrap();
    assert_eq!(
        changes(&*store, "1.7", "1.8"),
        StructureComparison::Compared(vec![StructureChange::ObjectRemoved {
            class: CLASS.into(),
            number: 0,
        }])
    );
    // Across several revisions, and backwards.
    assert_eq!(
        changes(&*store, "1.8", "1.1"),
        StructureComparison::Compared(vec![
            StructureChange::ObjectAdded {
                class: CLASS.into(),
                number: 0,
                values: vec![
                    value("priority", None, Some("2")),
                    secret("secret"),
                    value("title", None, Some("first")),
                ],
            },
            StructureChange::AttachmentRemoved {
                name: "b.txt".into(),
                size: 1,
                version: v("1.1"),
            }
        ])
    );
    // The record read back through another store, as another process would.
    assert_eq!(
        db.reopen()
            .diff(&reference(PAGE), None, v("1.5"), v("1.6"))
            .unwrap()
            .structure,
        changes(&*store, "1.5", "1.6")
    );
}

#[backend_test]
fn a_batch_records_each_revision_as_its_own_write_left_it(db: &Fixture) {
    let store = db.store();
    task_class(&*store);
    store
        .write_object(&write(PAGE, None, &[("title", "zero")]))
        .unwrap();
    store
        .write_objects(&[
            write(PAGE, Some(0), &[("title", "one")]),
            write(PAGE, None, &[("title", "new object")]),
        ])
        .unwrap();
    let after = current(&*store);
    assert_eq!(after, v("1.3"), "one revision per write of the batch");
    assert_eq!(
        changes(&*store, "1.1", "1.2"),
        StructureComparison::Compared(vec![StructureChange::ObjectChanged {
            class: CLASS.into(),
            number: 0,
            fields: vec![value("title", Some("zero"), Some("one"))],
        }])
    );
    assert_eq!(
        changes(&*store, "1.2", "1.3"),
        StructureComparison::Compared(vec![StructureChange::ObjectAdded {
            class: CLASS.into(),
            number: 1,
            values: vec![value("title", None, Some("new object"))],
        }])
    );
}

#[backend_test]
fn a_translation_has_no_structure_of_its_own(db: &Fixture) {
    let store = db.store();
    task_class(&*store);
    store
        .save_document(&DocumentSave::new(reference(PAGE), "en", "alice"))
        .unwrap();
    let fr = Locale::parse("fr").unwrap();
    for text in ["un", "deux"] {
        store
            .save_document(&DocumentSave::new(reference(PAGE), text, "alice").locale(fr.clone()))
            .unwrap();
    }
    let diff = store
        .diff(&reference(PAGE), Some(&fr), v("1.1"), v("1.2"))
        .unwrap();
    assert_eq!(diff.structure, StructureComparison::NotApplicable);
}

#[backend_test]
fn a_deleted_and_restored_document_keeps_its_records(db: &Fixture) {
    let store = db.store();
    store.write_attachment(&upload("a.txt", b"abc")).unwrap();
    store.write_attachment(&upload("a.txt", b"abcd")).unwrap();
    let before = changes(&*store, "1.1", "1.2");
    assert!(matches!(&before, StructureComparison::Compared(c) if c.len() == 1));
    let entry = store
        .delete_document(&DocumentDelete {
            reference: reference(PAGE),
            author: "alice".into(),
            comment: "cleanup".into(),
            expected: Expected::Any,
        })
        .unwrap();
    store.restore(entry.id, "alice").unwrap();
    assert_eq!(changes(&*store, "1.1", "1.2"), before);
}
