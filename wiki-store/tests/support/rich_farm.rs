//! A farm with every kind of content, made through the store API: what the farm-copy tests
//! (`wiki-store/tests/postgres/transfer.rs`, `wiki-mcp/tests/replicas/migrate.rs`) copy and
//! compare. Its names (users ada and bert, the wiki `archive`) stay clear of the demo farm's.

// Helpers outside test functions panic on failure by design, like the tests they serve.
#![allow(clippy::unwrap_used)]

use wiki_store::Store;
use wiki_store::model::attachment::AttachmentWrite;
use wiki_store::model::class::{FieldType, NumberKind};
use wiki_store::model::document::{DocumentSave, Expected};
use wiki_store::model::locale::Locale;
use wiki_store::model::mcp_config::McpConfig;
use wiki_store::model::object::{ClassChange, FieldChange, ObjectWrite};
use wiki_store::model::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::model::trash::DocumentDelete;
use wiki_store::model::vector::{VectorEntry, VectorIndex, VectorRow};
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;

pub(crate) fn page(name: &str) -> DocumentReference {
    DocumentReference::parse(name, &WikiId::main()).unwrap()
}

/// Fills `store` with every kind of content a farm holds: several versions, a translation, links, an attachment
/// with two versions, a class and objects, a group, a deny right, a token used once, a
/// configuration change, a second wiki, a trashed page and vectors. Returns ada's token.
pub(crate) fn rich_farm(store: &dyn Store) -> String {
    let guide = page("Docs.Guide");
    for content in [
        "First draft",
        "Second draft with [[Docs.Other]]",
        "Final guide",
    ] {
        store
            .save_document(&DocumentSave::new(guide.clone(), content, "ada"))
            .unwrap();
    }
    let french = Locale::parse("fr").unwrap();
    store
        .save_document(&DocumentSave::new(guide.clone(), "Guide final", "ada").locale(french))
        .unwrap();
    for content in [&b"version one"[..], b"version two, longer"] {
        store
            .write_attachment(&AttachmentWrite {
                reference: guide.clone(),
                name: "notes.txt".into(),
                content: content.to_vec(),
                author: "ada".into(),
                comment: "upload".into(),
                expected: Expected::Any,
            })
            .unwrap();
    }
    for (name, field_type) in [
        ("title", FieldType::String),
        ("priority", FieldType::Number(NumberKind::Integer)),
        ("weight", FieldType::Number(NumberKind::Float)),
    ] {
        store
            .change_class(&ClassChange {
                class_document: page("Tasks.TaskClass"),
                change: FieldChange::Add {
                    rules: Default::default(),
                    name: name.into(),
                    field_type,
                    pretty_name: None,
                },
                author: "admin".into(),
                comment: format!("add {name}"),
                major: false,
                expected: Expected::Any,
            })
            .unwrap();
    }
    for (title, priority, weight) in [("Ship", "1", "0.1"), ("Test", "2", "2.5")] {
        store
            .write_object(&ObjectWrite {
                reference: page("Tasks.Board"),
                class: "Tasks.TaskClass".into(),
                number: None,
                values: [("title", title), ("priority", priority), ("weight", weight)]
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                    .collect(),
                title: None,
                author: "ada".into(),
                comment: "task".into(),
                major: false,
                expected: Expected::Any,
            })
            .unwrap();
    }
    store.create_user("ada", Some("Ada")).unwrap();
    store.create_user("bert", None).unwrap();
    store.create_group("editors").unwrap();
    store
        .add_member("editors", &Subject::User("ada".into()))
        .unwrap();
    store
        .set_right(&RightRule {
            scope: RightScope::Wiki(WikiId::main()),
            subject: Subject::Group("editors".into()),
            right: Right::Edit,
            effect: Effect::Allow,
        })
        .unwrap();
    store
        .set_right(&RightRule {
            scope: RightScope::Page(guide.clone()),
            subject: Subject::User("bert".into()),
            right: Right::View,
            effect: Effect::Deny,
        })
        .unwrap();
    let token = store.create_token("ada", "laptop").unwrap();
    let config = McpConfig {
        enabled_tools: vec!["man".into(), "get_document".into()],
        ..store.mcp_config(&WikiId::main())
    };
    store
        .set_mcp_config(&WikiId::main(), &config, "admin")
        .unwrap();
    let archive = WikiId::new("archive").unwrap();
    store.create_wiki(&archive, "Archive").unwrap();
    let doomed = page("Docs.Old");
    store
        .save_document(&DocumentSave::new(doomed.clone(), "Obsolete page", "bert"))
        .unwrap();
    store
        .write_attachment(&AttachmentWrite {
            reference: doomed.clone(),
            name: "old.bin".into(),
            content: vec![0, 1, 2, 255],
            author: "bert".into(),
            comment: "old".into(),
            expected: Expected::Any,
        })
        .unwrap();
    store
        .delete_document(&DocumentDelete {
            reference: doomed,
            author: "bert".into(),
            comment: "cleanup".into(),
            expected: Expected::Any,
        })
        .unwrap();
    store.farm_secret("some-secret", &[7; 32]).unwrap();
    let version = store.document(&guide, None).unwrap().unwrap().version;
    store
        .put_vector_row(
            &VectorIndex::new(WikiId::main(), "passages"),
            &VectorRow {
                reference: guide,
                locale: None,
                version,
                entries: vec![VectorEntry {
                    key: "0".into(),
                    digest: "d0".into(),
                    text: "Final guide".into(),
                    vector: vec![0.25, -0.5, 1.0],
                }],
            },
        )
        .unwrap();
    token.token.expose().to_owned()
}
