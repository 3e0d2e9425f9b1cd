//! Regression: counts of one read as one (`Size: 1 byte`, not `1 bytes`) in the attachment tools'
//! output, as the document header already does for lines and characters.

use serde_json::json;
use wiki_store::testing::backend_test;

use crate::harness::Farm;
use crate::harness::text;

#[backend_test]
async fn a_one_byte_attachment_is_one_byte() {
    let farm = Farm::new();
    farm.configure("main", |config| {
        config.enabled_tools = ["write_attachment", "get_attachment"]
            .iter()
            .map(|id| (*id).to_owned())
            .collect();
    });
    let written = text(
        farm.call(
            "write_attachment",
            json!({"reference": "Zoo.One", "filename": "one.txt", "content": "a"}),
            "admin",
            "main",
        )
        .await,
    );
    assert!(written.contains("\nSize: 1 byte\n"), "{written}");
    let read = text(
        farm.call(
            "get_attachment",
            json!({"reference": "Zoo.One", "filename": "one.txt"}),
            "admin",
            "main",
        )
        .await,
    );
    assert!(read.contains("\nSize: 1 byte (1 byte)\n"), "{read}");
    let two = text(
        farm.call(
            "write_attachment",
            json!({"reference": "Zoo.Two", "filename": "two.txt", "content": "ab"}),
            "admin",
            "main",
        )
        .await,
    );
    assert!(two.contains("\nSize: 2 bytes\n"), "{two}");
}
