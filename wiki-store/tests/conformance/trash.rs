//! The recycle bin: documents with everything on them, attachments, restore.

use std::collections::BTreeMap;

use wiki_store::model::attachment::{AttachmentDelete, AttachmentWrite};
use wiki_store::model::class::FieldType;
use wiki_store::model::document::{DocumentSave, Expected};
use wiki_store::model::locale::Locale;
use wiki_store::model::object::{ClassChange, FieldChange, FieldValue, ObjectWrite};
use wiki_store::model::search::{SearchQuery, WikiScope};
use wiki_store::model::trash::{DocumentDelete, TrashQuery};
use wiki_store::model::wiki::WikiId;
use wiki_store::testing::backend_test;
use wiki_store::{Entity, Store, StoreError};

use crate::harness::{Fixture, reference, v};

/// Docs.Guide at 1.4: content, a French translation, a class field, an object, an attachment.
fn rich_document(store: &dyn Store) {
    let guide = reference("Docs.Guide");
    store
        .save_document(
            &DocumentSave::new(guide.clone(), "See [Home](Main.WebHome) zebraword", "alice")
                .title("Guide"),
        )
        .unwrap();
    let french = Locale::parse("fr").unwrap();
    store
        .save_document(&DocumentSave::new(guide.clone(), "Bonjour", "alice").locale(french))
        .unwrap();
    store
        .change_class(&ClassChange {
            class_document: guide.clone(),
            change: FieldChange::Add {
                rules: Default::default(),
                name: "status".into(),
                field_type: FieldType::String,
                pretty_name: None,
            },
            author: "alice".into(),
            comment: String::new(),
            major: false,
            expected: Expected::Any,
        })
        .unwrap();
    store
        .write_object(&ObjectWrite {
            reference: guide.clone(),
            class: "Docs.Guide".into(),
            number: None,
            values: BTreeMap::from([("status".to_owned(), "draft".to_owned())]),
            title: None,
            author: "alice".into(),
            comment: String::new(),
            major: false,
            expected: Expected::Any,
        })
        .unwrap();
    store
        .write_attachment(&AttachmentWrite {
            reference: guide,
            name: "a.txt".into(),
            content: b"bytes".to_vec(),
            author: "alice".into(),
            comment: String::new(),
            expected: Expected::Any,
        })
        .unwrap();
}

fn delete(expected: Expected) -> DocumentDelete {
    DocumentDelete {
        reference: reference("Docs.Guide"),
        author: "bob".into(),
        comment: "cleanup".into(),
        expected,
    }
}

fn hits(store: &dyn Store, words: &str) -> usize {
    let query = SearchQuery::new(Some(words.to_owned()), WikiScope::All);
    store.search(&query, &mut |_| true).unwrap().total
}

#[backend_test]
fn a_deleted_document_goes_to_the_bin_with_everything_and_comes_back(db: &Fixture) {
    let store = db.store();
    rich_document(&*store);
    assert_eq!(hits(&*store, "zebraword"), 1);
    let stale = store.delete_document(&delete(Expected::Version(v("1.1"))));
    assert!(matches!(stale, Err(StoreError::VersionConflict { .. })));

    let entry = store
        .delete_document(&delete(Expected::Version(v("1.4"))))
        .unwrap();
    assert_eq!(
        (
            entry.version,
            entry.attachment.as_deref(),
            entry.deleted_by.as_str()
        ),
        (v("1.4"), None, "bob")
    );
    assert_eq!(
        store.document(&reference("Docs.Guide"), None).unwrap(),
        None
    );
    assert_eq!(
        store.document_locales(&reference("Docs.Guide")).unwrap(),
        None,
        "translations went too"
    );
    assert_eq!(
        hits(&*store, "zebraword"),
        0,
        "the search index follows in the same transaction"
    );
    assert_eq!(
        store.trash(&WikiId::main()).unwrap(),
        std::slice::from_ref(&entry)
    );

    let restored = store.restore(entry.id, "carol").unwrap();
    assert_eq!(restored.id, entry.id);
    assert!(store.trash(&WikiId::main()).unwrap().is_empty());
    let guide = reference("Docs.Guide");
    let document = store.document(&guide, None).unwrap().unwrap();
    assert_eq!(
        (document.version, document.title.as_str()),
        (v("1.4"), "Guide")
    );
    assert_eq!(
        store
            .document(&guide, Some(&Locale::parse("fr").unwrap()))
            .unwrap()
            .unwrap()
            .content,
        "Bonjour"
    );
    assert_eq!(
        store.history(&guide, None, 0, 10).unwrap().unwrap().total,
        4
    );
    assert_eq!(
        store
            .attachment_content(&guide, "a.txt", None)
            .unwrap()
            .unwrap()
            .1,
        b"bytes"
    );
    assert_eq!(
        store.objects(&guide).unwrap()[0].values["status"],
        FieldValue::Text("draft".into())
    );
    assert_eq!(
        store.class(&guide).unwrap().unwrap().enabled_names(),
        ["status"]
    );
    assert_eq!(hits(&*store, "zebraword"), 1);
}

#[backend_test]
fn restoring_over_a_new_document_is_refused(db: &Fixture) {
    let store = db.store();
    rich_document(&*store);
    let entry = store.delete_document(&delete(Expected::Any)).unwrap();
    store
        .save_document(&DocumentSave::new(reference("Docs.Guide"), "new", "dave"))
        .unwrap();
    assert!(matches!(
        store.restore(entry.id, "carol"),
        Err(StoreError::AlreadyExists {
            entity: Entity::Document,
            ..
        })
    ));
    assert_eq!(
        store.trash(&WikiId::main()).unwrap().len(),
        1,
        "the entry stays in the bin"
    );
    assert!(matches!(
        store.delete_document(&DocumentDelete {
            reference: reference("Docs.None"),
            ..delete(Expected::Any)
        }),
        Err(StoreError::NotFound { .. })
    ));
}

#[backend_test]
fn a_deleted_attachment_is_restored_onto_its_document(db: &Fixture) {
    let store = db.store();
    rich_document(&*store);
    let deleted = store
        .delete_attachment(&AttachmentDelete {
            reference: reference("Docs.Guide"),
            name: "a.txt".into(),
            author: "bob".into(),
            comment: String::new(),
            expected: Expected::Any,
        })
        .unwrap();
    let entries = store.trash(&WikiId::main()).unwrap();
    assert_eq!(entries[0].attachment.as_deref(), Some("a.txt"));
    store.restore(deleted.trash, "carol").unwrap();
    let (info, bytes) = store
        .attachment_content(&reference("Docs.Guide"), "a.txt", None)
        .unwrap()
        .unwrap();
    assert_eq!(
        (info.version, bytes.as_slice()),
        (v("1.1"), b"bytes".as_slice())
    );
    assert_eq!(
        store
            .document(&reference("Docs.Guide"), None)
            .unwrap()
            .unwrap()
            .version,
        v("1.6")
    );
    assert!(matches!(
        store.restore(deleted.trash, "carol"),
        Err(StoreError::NotFound {
            entity: Entity::TrashEntry,
            ..
        })
    ));
}

/// `trash_entries`: newest first by id, continued below an id, narrowed to one document (its
/// own deletions and its attachments'), one wiki only.
#[backend_test]
fn the_bin_is_read_in_pages_of_a_wiki_or_of_one_document(db: &Fixture) {
    let store = db.store();
    let mut made = Vec::new();
    for name in ["Docs.A", "Docs.B", "Docs.A", "Docs.C"] {
        store
            .save_document(&DocumentSave::new(reference(name), "text", "alice"))
            .unwrap();
        made.push(
            store
                .delete_document(&DocumentDelete {
                    reference: reference(name),
                    ..delete(Expected::Any)
                })
                .unwrap(),
        );
    }
    let ids = |entries: Vec<wiki_store::model::trash::TrashEntry>| {
        entries
            .into_iter()
            .map(|entry| entry.id)
            .collect::<Vec<_>>()
    };
    let first = store
        .trash_entries(&TrashQuery::wiki(WikiId::main(), 3))
        .unwrap();
    assert_eq!(ids(first.clone()), [made[3].id, made[2].id, made[1].id]);
    assert_eq!(first[0], made[3], "an entry reads back whole");
    let rest = store
        .trash_entries(&TrashQuery::wiki(WikiId::main(), 3).before(made[1].id))
        .unwrap();
    assert_eq!(ids(rest), [made[0].id]);
    let of_a = store
        .trash_entries(&TrashQuery::document(&reference("Docs.A"), 10))
        .unwrap();
    assert_eq!(ids(of_a), [made[2].id, made[0].id]);
    let elsewhere = store
        .trash_entries(&TrashQuery::wiki(WikiId::new("sub").unwrap(), 10))
        .unwrap();
    assert!(elsewhere.is_empty(), "another wiki's bin is its own");
}
