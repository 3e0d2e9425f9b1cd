//! The per-wiki MCP configuration: defaults, round trip, reach, and failing closed.

use std::sync::{Arc, Mutex};

use wiki_store::model::change::{ChangeEvent, ChangeKind};
use wiki_store::model::document::Expected;
use wiki_store::model::mcp_config::{
    MCP_CONFIG_CLASS, MCP_CONFIG_DOCUMENT, McpConfig, SpaceFilterMode,
};
use wiki_store::model::trash::DocumentDelete;
use wiki_store::model::wiki::WikiId;
use wiki_store::testing::backend_test;
use wiki_store::{InvalidInput, StoreError};

use crate::harness::{Fixture, reference};

fn dev() -> WikiId {
    WikiId::new("dev").unwrap()
}

fn configured() -> McpConfig {
    McpConfig {
        server_name: Some("Docs".into()),
        description: Some("Product documentation".into()),
        enabled: false,
        enabled_tools: vec!["get_document".into(), "query_documents".into()],
        space_filter_mode: SpaceFilterMode::Blacklist,
        space_filter_spaces: vec!["Private".into()],
        space_filter_documents: vec!["Main.Secret".into()],
        guest_access: true,
        confirm_writes: true,
        ..McpConfig::default()
    }
}

#[backend_test]
fn an_unconfigured_wiki_reads_the_default_and_an_unknown_wiki_fails_closed(db: &Fixture) {
    let store = db.store();
    assert_eq!(store.mcp_config(&WikiId::main()), McpConfig::default());
    assert!(store.mcp_config(&WikiId::main()).enabled, "unset means on");
    assert!(
        !store.mcp_config(&WikiId::main()).guest_access,
        "a wiki nobody configured does not serve callers without a credential"
    );
    assert_eq!(store.mcp_config(&dev()), McpConfig::fail_closed());
}

#[backend_test]
fn a_saved_configuration_reads_back_on_its_hidden_document(db: &Fixture) {
    let store = db.store();
    store.create_wiki(&dev(), "Dev").unwrap();
    store
        .set_mcp_config(&dev(), &configured(), "admin")
        .unwrap();
    assert_eq!(store.mcp_config(&dev()), configured());
    assert_eq!(
        store.mcp_config(&WikiId::main()),
        McpConfig::default(),
        "other wikis are untouched"
    );
    let document = store
        .document(&reference(MCP_CONFIG_DOCUMENT).with_wiki(dev()), None)
        .unwrap()
        .unwrap();
    assert!(document.hidden);

    let enabled_again = McpConfig {
        enabled: true,
        enabled_tools: Vec::new(),
        ..configured()
    };
    store
        .set_mcp_config(&dev(), &enabled_again, "admin")
        .unwrap();
    assert_eq!(store.mcp_config(&dev()), enabled_again);
}

#[backend_test]
fn saving_emits_a_change_event_for_the_configuration_document(db: &Fixture) {
    let store = db.store();
    let events: Arc<Mutex<Vec<ChangeEvent>>> = Arc::default();
    let sink = Arc::clone(&events);
    let _subscription = store.subscribe(Arc::new(move |event: &ChangeEvent| {
        sink.lock().unwrap().push(event.clone())
    }));
    let before = store.change_seq().unwrap();
    store
        .set_mcp_config(&WikiId::main(), &configured(), "admin")
        .unwrap();
    assert!(store.change_seq().unwrap() > before);
    let events = events.lock().unwrap();
    assert!(
        events.iter().any(|event| matches!(
            &event.kind,
            ChangeKind::DocumentSaved { reference, .. } if reference.local() == MCP_CONFIG_DOCUMENT
        )),
        "{events:?}"
    );
}

#[backend_test]
fn reach_is_read_from_the_main_wiki_only(db: &Fixture) {
    let store = db.store();
    store.create_wiki(&dev(), "Dev").unwrap();
    assert!(
        store.has_reach(&WikiId::main()),
        "until initialized only main has reach"
    );
    assert!(!store.has_reach(&dev()));

    let self_granted = McpConfig {
        reach_enabled_wikis: vec!["dev".into()],
        reach_initialized: true,
        ..McpConfig::default()
    };
    store
        .set_mcp_config(&dev(), &self_granted, "devadmin")
        .unwrap();
    assert!(
        !store.has_reach(&dev()),
        "a sub-wiki cannot grant itself reach"
    );

    store
        .set_mcp_config(&WikiId::main(), &self_granted, "admin")
        .unwrap();
    assert!(store.has_reach(&dev()));
    assert!(
        !store.has_reach(&WikiId::main()),
        "once initialized the list is authoritative"
    );
}

#[backend_test]
fn invalid_configurations_are_refused_and_nothing_is_written(db: &Fixture) {
    let store = db.store();
    let before = store.change_seq().unwrap();
    let bad = McpConfig {
        enabled_tools: vec!["get document".into()],
        ..McpConfig::default()
    };
    assert!(
        store
            .set_mcp_config(&WikiId::main(), &bad, "admin")
            .is_err()
    );
    assert_eq!(store.change_seq().unwrap(), before);
    assert_eq!(store.mcp_config(&WikiId::main()), McpConfig::default());
}

#[backend_test]
fn the_configuration_documents_cannot_be_deleted(db: &Fixture) {
    let store = db.store();
    let restrictive = McpConfig {
        space_filter_mode: SpaceFilterMode::Whitelist,
        space_filter_spaces: vec!["Public".into()],
        ..McpConfig::default()
    };
    store
        .set_mcp_config(&WikiId::main(), &restrictive, "admin")
        .unwrap();
    for document in [MCP_CONFIG_DOCUMENT, MCP_CONFIG_CLASS] {
        let delete = DocumentDelete {
            reference: reference(document),
            author: "mallory".into(),
            comment: String::new(),
            expected: Expected::Any,
        };
        assert!(matches!(
            store.delete_document(&delete),
            Err(StoreError::Invalid(InvalidInput::ReservedDocument { .. }))
        ));
    }
    assert_eq!(
        store.mcp_config(&WikiId::main()),
        restrictive,
        "the configuration was neither reset nor disabled"
    );
}
