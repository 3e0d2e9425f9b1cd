//! Look-alike names: a new page, space or attachment may not be named with invisible format
//! characters or surrounding spaces, while content stored under such a name before the rule
//! stays readable (its rows are renamed here with SQL, as an older version of the store would
//! have left them).

use wiki_store::model::attachment::AttachmentWrite;
use wiki_store::model::document::{DocumentSave, Expected};
use wiki_store::{AttachmentStore, DocumentStore, InvalidInput, StoreError};

use crate::harness::{put, reference, store};

fn refusal(error: StoreError) -> (&'static str, String) {
    match error {
        StoreError::Invalid(InvalidInput::Name { what, reason }) => (what, reason),
        other => panic!("expected a name refusal, got {other}"),
    }
}

#[test]
fn new_documents_with_look_alike_names_are_refused_and_nothing_is_written() {
    let (_dir, store) = store();
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

#[test]
fn attachment_names_with_padding_or_invisible_characters_are_refused() {
    let (_dir, store) = store();
    put(&store, "Sales.Plans", "Plans", "text");
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

#[test]
fn content_stored_under_look_alike_names_stays_readable_and_editable() {
    let (dir, store) = store();
    put(&store, "Sales.Plans", "Plans", "old text");
    let write = AttachmentWrite {
        reference: reference("Sales.Plans"),
        name: "notes.txt".to_owned(),
        content: b"notes".to_vec(),
        author: "alice".to_owned(),
        comment: String::new(),
        expected: Expected::Any,
    };
    store.write_attachment(&write).unwrap();
    let conn = rusqlite::Connection::open(dir.path().join("data").join("wiki.db")).unwrap();
    conn.execute(
        "UPDATE documents SET name = 'Plan' || char(8203) || 's' WHERE name = 'Plans'",
        [],
    )
    .unwrap();
    conn.execute(
        "UPDATE attachments SET name = ' notes.txt' WHERE name = 'notes.txt'",
        [],
    )
    .unwrap();
    drop(conn);
    let legacy = reference("Sales.Plan\u{200B}s");
    let document = store.document(&legacy, None).unwrap().unwrap();
    assert_eq!(document.content, "old text");
    let names: Vec<String> = store
        .attachments(&legacy)
        .unwrap()
        .into_iter()
        .map(|info| info.name)
        .collect();
    assert_eq!(names, [" notes.txt"]);
    let (_, bytes) = store
        .attachment_content(&legacy, " notes.txt", None)
        .unwrap()
        .unwrap();
    assert_eq!(bytes, b"notes");
    // Saving the existing document again is not a creation.
    let save = DocumentSave::new(legacy.clone(), "new text", "alice");
    store.save_document(&save).unwrap();
    assert_eq!(
        store.document(&legacy, None).unwrap().unwrap().content,
        "new text"
    );
}
