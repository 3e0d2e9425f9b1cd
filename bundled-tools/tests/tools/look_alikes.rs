//! Look-alike names through the tools: a new page, space or attachment may not be named with
//! an invisible format character or surrounding spaces (the write tools say why, and save
//! nothing), while content stored under such names before the rule stays readable and editable
//! (its rows are renamed here with SQL, as an older store would have left them).

use serde_json::json;
use wiki_store::testing::backend_test;

use crate::harness::unchanged::Says::{Exactly, StartsWith};
use crate::harness::{Farm, ok, text};

/// The seeded farm with the tools these tests call enabled on `main`.
fn writable_farm() -> Farm {
    let farm = Farm::new();
    farm.configure("main", |config| {
        config.enabled_tools = [
            "get_document",
            "get_attachment",
            "write_document",
            "edit_document",
            "write_attachment",
        ]
        .iter()
        .map(|tool| (*tool).to_owned())
        .collect();
    });
    farm
}

/// Renames rows of the farm's database as an older store could have written them.
fn rename(farm: &Farm, sql: &str) {
    let path = farm.path().join("wiki.db");
    let connection = ok(rusqlite::Connection::open(path));
    let changed = ok(connection.execute(sql, []));
    assert_eq!(changed, 1, "{sql}");
}

#[backend_test(only = "sqlite")]
async fn new_pages_with_look_alike_names_are_refused() {
    let farm = writable_farm();
    let zero_width = json!({"reference": "Sandbox.Plan\u{200B}s", "content": "x"});
    let refused = Exactly(
        "Note: 1 invisible or layout-changing character is shown as ⟦U+XXXX⟧ (the code point); \
         edit_document and write_document accept the escape.\nError: a new document cannot be \
         named \"main:Sandbox.Plan⟦U+200B⟧s\": its page name is invalid (it contains the \
         invisible format character U+200B). Choose a name without invisible characters or \
         surrounding spaces. Nothing was saved.",
    );
    farm.refuses("write_document", "alice", zero_width, &[refused])
        .await;
    let padded = json!({"reference": "Sandbox .Plans",
                        "edits": [{"old_string": "", "new_string": "x"}]});
    let refused = StartsWith(
        "Error: a new document cannot be named \"main:Sandbox .Plans\": its space name is \
         invalid (it starts or ends with a space).",
    );
    farm.refuses("edit_document", "alice", padded, &[refused])
        .await;
}

#[backend_test(only = "sqlite")]
async fn attachments_named_with_padding_or_invisible_characters_are_refused() {
    let farm = writable_farm();
    for (name, reason) in [
        (" notes.txt", "it starts or ends with a space"),
        ("notes.txt ", "it starts or ends with a space"),
        (
            "no\u{FEFF}tes.txt",
            "it contains the invisible format character U+FEFF",
        ),
    ] {
        let arguments = json!({"reference": "Sandbox.WebHome", "filename": name,
                               "content": "x", "base_version": "1.4"});
        let refused = StartsWith(&format!("Error: invalid 'filename': {reason}."));
        let message = farm
            .refuses("write_attachment", "alice", arguments, &[refused])
            .await;
        assert!(message.ends_with("Nothing was saved."), "{message}");
    }
}

#[backend_test(only = "sqlite")]
async fn content_stored_under_look_alike_names_stays_readable() {
    let farm = writable_farm();
    rename(
        &farm,
        "UPDATE attachments SET name = ' notes.txt' WHERE name = 'notes.txt'",
    );
    rename(
        &farm,
        "UPDATE documents SET name = 'Gui' || char(8203) || 'de' WHERE name = 'Guide' AND locale = ''",
    );
    // The exact stored name reads; so does the name without its padding.
    for filename in [" notes.txt", "notes.txt"] {
        let read = text(
            farm.call(
                "get_attachment",
                json!({"reference": "Sandbox.WebHome", "filename": filename}),
                "alice",
                "main",
            )
            .await,
        );
        assert!(read.starts_with("Attachment:  notes.txt\n"), "{read}");
        assert!(read.contains("\n```\nline one\nline two\n```\n"), "{read}");
    }
    let page = text(
        farm.call(
            "get_document",
            json!({"reference": "Help.Gui\u{200B}de"}),
            "alice",
            "main",
        )
        .await,
    );
    assert!(page.contains("\n     1\t# Guide\n"), "{page}");
    // Editing the existing page is not creating one.
    let edited = text(
        farm.call(
            "edit_document",
            json!({"reference": "Help.Gui\u{200B}de",
                   "edits": [{"old_string": "Intro.", "new_string": "Introduction."}]}),
            "alice",
            "main",
        )
        .await,
    );
    // The name is shown escaped, and the escaped form reads back as the stored name.
    assert!(
        edited.contains("\nEdited document main:Help.Gui⟦U+200B⟧de."),
        "{edited}"
    );
    let by_escape = text(
        farm.call(
            "get_document",
            json!({"reference": "Help.Gui⟦U+200B⟧de"}),
            "alice",
            "main",
        )
        .await,
    );
    assert!(by_escape.contains("Introduction."), "{by_escape}");
}
