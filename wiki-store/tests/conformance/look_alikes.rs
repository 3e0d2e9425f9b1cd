//! Look-alike names: a new page, space or attachment may not be named with invisible format
//! characters or surrounding spaces. (That content stored under such a name before the rule
//! stays readable is SQLite-specific set-up: `tests/sqlite/look_alikes.rs`.)

use wiki_store::model::attachment::AttachmentWrite;
use wiki_store::model::document::{DocumentSave, Expected};
use wiki_store::testing::backend_test;
use wiki_store::{InvalidInput, StoreError};

use crate::harness::{Fixture, put, reference};

fn refusal(error: StoreError) -> (&'static str, String) {
    match error {
        StoreError::Invalid(InvalidInput::Name { what, reason }) => (what, reason),
        other => panic!("expected a name refusal, got {other}"),
    }
}

#[backend_test]
fn new_documents_with_look_alike_names_are_refused_and_nothing_is_written(db: &Fixture) {
    let store = db.store();
    for (input, what, reason) in [
        (
            "Sales.Plan\u{200B}s",
            "page name",
            "it contains the invisible format character U+200B",
        ),
        (
            "Sales\u{FEFF}.Plans",
            "space name",
            "it contains the invisible format character U+FEFF",
        ),
        (
            "Sales. Plans",
            "page name",
            "it starts or ends with a space",
        ),
    ] {
        let save = DocumentSave::new(reference(input), "text", "alice");
        let error = store.save_document(&save).err().unwrap();
        assert_eq!(refusal(error), (what, reason.to_owned()), "{input:?}");
        assert!(store.document(&reference(input), None).unwrap().is_none());
    }
    // An attachment would create its document: refused the same way.
    let write = AttachmentWrite {
        reference: reference("Sales.Plan\u{200B}s"),
        name: "a.txt".to_owned(),
        content: b"x".to_vec(),
        author: "alice".to_owned(),
        comment: String::new(),
        expected: Expected::Any,
    };
    let error = store.write_attachment(&write).err().unwrap();
    assert_eq!(refusal(error).0, "page name");
}

#[backend_test]
fn attachment_names_with_padding_or_invisible_characters_are_refused(db: &Fixture) {
    let store = db.store();
    put(&*store, "Sales.Plans", "Plans", "text");
    for name in [" notes.txt", "notes.txt ", "no\u{200B}tes.txt"] {
        let write = AttachmentWrite {
            reference: reference("Sales.Plans"),
            name: name.to_owned(),
            content: b"x".to_vec(),
            author: "alice".to_owned(),
            comment: String::new(),
            expected: Expected::Any,
        };
        let error = store.write_attachment(&write).err().unwrap();
        assert_eq!(refusal(error).0, "attachment name", "{name:?}");
    }
    assert!(
        store
            .attachments(&reference("Sales.Plans"))
            .unwrap()
            .is_empty()
    );
}
