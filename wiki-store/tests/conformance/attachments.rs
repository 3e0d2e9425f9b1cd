//! Attachments: uploads, versions, media types, caps and name rules.

use wiki_store::model::attachment::{AttachmentDelete, AttachmentWrite};
use wiki_store::model::document::{DocumentSave, Expected, SaveOutcome};
use wiki_store::model::version::Version;
use wiki_store::testing::backend_test;
use wiki_store::{Entity, Field, InvalidInput, Limits, Store, StoreConfig, StoreError};

use crate::harness::{Fixture, reference, v};

const PNG: &[u8] =
    b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";

fn upload(document: &str, name: &str, content: &[u8], expected: Expected) -> AttachmentWrite {
    AttachmentWrite {
        reference: reference(document),
        name: name.into(),
        content: content.to_vec(),
        author: "alice".into(),
        comment: format!("[AI] uploaded {name}"),
        expected,
    }
}

fn document_version(store: &dyn Store, document: &str) -> Option<Version> {
    store
        .document(&reference(document), None)
        .unwrap()
        .map(|d| d.version)
}

#[backend_test]
fn each_upload_is_a_new_attachment_version_and_a_new_document_version(db: &Fixture) {
    let store = db.store();
    store
        .save_document(&DocumentSave::new(reference("Docs.Guide"), "text", "bob"))
        .unwrap();
    let first = store
        .write_attachment(&upload(
            "Docs.Guide",
            "notes.txt",
            b"one",
            Expected::Version(v("1.1")),
        ))
        .unwrap();
    assert_eq!(first.attachment_version, v("1.1"));
    assert!(first.created_attachment);
    assert_eq!(
        first.document,
        SaveOutcome::Updated {
            previous: v("1.1"),
            version: v("1.2")
        }
    );
    let second = store
        .write_attachment(&upload(
            "Docs.Guide",
            "notes.txt",
            b"two!",
            Expected::Version(v("1.2")),
        ))
        .unwrap();
    assert_eq!(
        (second.attachment_version, second.created_attachment),
        (v("1.2"), false)
    );

    let current = store
        .attachment(&reference("Docs.Guide"), "notes.txt")
        .unwrap()
        .unwrap();
    assert_eq!(
        (current.version, current.size, current.author.as_str()),
        (v("1.2"), 4, "alice")
    );
    assert_eq!(current.media.effective(), "text/plain");
    let history = store
        .attachment_history(&reference("Docs.Guide"), "notes.txt")
        .unwrap();
    assert_eq!(
        history.iter().map(|a| a.version).collect::<Vec<_>>(),
        [v("1.2"), v("1.1")]
    );
    let (_, old) = store
        .attachment_content(&reference("Docs.Guide"), "notes.txt", Some(v("1.1")))
        .unwrap()
        .unwrap();
    assert_eq!(old, b"one");
    let (info, now) = store
        .attachment_content(&reference("Docs.Guide"), "notes.txt", None)
        .unwrap()
        .unwrap();
    assert_eq!(
        (info.version, now.as_slice()),
        (v("1.2"), b"two!".as_slice())
    );
    assert_eq!(
        store
            .attachment_content(&reference("Docs.Guide"), "notes.txt", Some(v("7.1")))
            .unwrap(),
        None
    );
    let document = store
        .document(&reference("Docs.Guide"), None)
        .unwrap()
        .unwrap();
    assert_eq!(
        (document.content.as_str(), document.author.as_str()),
        ("text", "alice"),
        "content kept, author updated"
    );
}

#[backend_test]
fn an_upload_creates_a_missing_document_and_sniffs_the_bytes(db: &Fixture) {
    let store = db.store();
    let outcome = store
        .write_attachment(&upload("Docs.New", "logo.txt", PNG, Expected::Absent))
        .unwrap();
    assert_eq!(outcome.document, SaveOutcome::Created { version: v("1.1") });
    let info = store
        .attachment(&reference("Docs.New"), "logo.txt")
        .unwrap()
        .unwrap();
    assert_eq!(info.media.declared, "text/plain");
    assert_eq!(info.media.sniffed.as_deref(), Some("image/png"));
    assert_eq!(info.media.effective(), "image/png");
    let listed = store.attachments(&reference("Docs.New")).unwrap();
    assert_eq!(listed.len(), 1);
    assert!(matches!(
        store.attachments(&reference("Docs.None")),
        Err(StoreError::NotFound { .. })
    ));
}

#[backend_test]
fn bad_names_oversize_files_and_stale_versions_are_refused_with_nothing_written(db: &Fixture) {
    let config = StoreConfig {
        limits: Limits {
            max_attachment_bytes: 8,
            ..Limits::default()
        },
        ..StoreConfig::default()
    };
    let store = db.open_with(config);
    store
        .save_document(&DocumentSave::new(reference("Docs.Guide"), "text", "bob"))
        .unwrap();
    for name in ["a/b", "x\u{202E}gpj.exe", "a\nb", "", ".."] {
        let refused = store.write_attachment(&upload("Docs.Guide", name, b"x", Expected::Any));
        assert!(
            matches!(refused, Err(StoreError::Invalid(InvalidInput::Name { .. }))),
            "{name:?}"
        );
    }
    let big = store.write_attachment(&upload("Docs.Guide", "big.bin", &[0; 9], Expected::Any));
    assert!(matches!(
        big,
        Err(StoreError::TooLarge {
            field: Field::Attachment,
            limit: 8,
            actual: 9
        })
    ));
    let stale = store.write_attachment(&upload(
        "Docs.Guide",
        "a.txt",
        b"x",
        Expected::Version(v("3.1")),
    ));
    assert!(matches!(stale, Err(StoreError::VersionConflict { .. })));
    let exists = store.write_attachment(&upload("Docs.Guide", "a.txt", b"x", Expected::Absent));
    assert!(matches!(exists, Err(StoreError::VersionConflict { .. })));
    assert!(
        store
            .attachments(&reference("Docs.Guide"))
            .unwrap()
            .is_empty()
    );
    assert_eq!(document_version(&*store, "Docs.Guide"), Some(v("1.1")));
    let zwj = store.write_attachment(&upload(
        "Docs.Guide",
        "a\u{200D}b.txt",
        b"ok",
        Expected::Any,
    ));
    assert!(zwj.is_ok(), "{zwj:?}");
}

#[backend_test]
fn deleting_an_attachment_moves_it_to_the_bin_as_a_minor_version(db: &Fixture) {
    let store = db.store();
    store
        .write_attachment(&upload("Docs.Guide", "a.txt", b"x", Expected::Any))
        .unwrap();
    let delete = AttachmentDelete {
        reference: reference("Docs.Guide"),
        name: "a.txt".into(),
        author: "alice".into(),
        comment: "[AI] deleted attachment a.txt".into(),
        expected: Expected::Version(v("1.1")),
    };
    let deleted = store.delete_attachment(&delete).unwrap();
    assert_eq!(
        deleted.document,
        SaveOutcome::Updated {
            previous: v("1.1"),
            version: v("1.2")
        }
    );
    assert_eq!(
        store.attachment(&reference("Docs.Guide"), "a.txt").unwrap(),
        None
    );
    let again = store.delete_attachment(&AttachmentDelete {
        expected: Expected::Any,
        ..delete
    });
    assert!(matches!(
        again,
        Err(StoreError::NotFound {
            entity: Entity::Attachment,
            ..
        })
    ));
}
