//! SQLite only: content stored under a look-alike name before the store refused such names
//! (its rows renamed here with SQL, as an older version of the store would have left them) stays
//! readable and editable. The refusal itself is in the conformance suite.

use wiki_store::model::attachment::AttachmentWrite;
use wiki_store::model::document::{DocumentSave, Expected};
use wiki_store::{AttachmentStore, DocumentStore};

use crate::harness::{database_file, put, reference, store};

#[test]
fn content_stored_under_look_alike_names_stays_readable_and_editable() {
    let (dir, store) = store();
    put(&store, "Sales.Plans", "old text");
    let write = AttachmentWrite {
        reference: reference("Sales.Plans"),
        name: "notes.txt".to_owned(),
        content: b"notes".to_vec(),
        author: "alice".to_owned(),
        comment: String::new(),
        expected: Expected::Any,
    };
    store.write_attachment(&write).unwrap();
    let conn = rusqlite::Connection::open(database_file(&dir)).unwrap();
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
