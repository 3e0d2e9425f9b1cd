//! A wiki's MCP configuration (its `MCP.ServerConfig` document and `MCP.ServerConfigClass`
//! class) is visible to that wiki's administrators only: for the guest and every other user the
//! two documents and the class answer exactly as a page and class they may not view do, through
//! every read tool (documents, history, links, schemas, object queries, search, the tree). The
//! rule lives in the doors (no right on the configuration but an administrator's), so each tool
//! inherits it.

use serde_json::{Value, json};
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::class::FieldType;
use wiki_tool_sdk::store::model::document::{DocumentSave, Expected};
use wiki_tool_sdk::store::model::object::{ClassChange, FieldChange, ObjectWrite};
use wiki_tool_sdk::store::rights::{Effect, Right, RightRule, RightScope, Subject};

use crate::harness::{Farm, GUEST, ok, reference, text, wiki};

/// Who is not an administrator of `main`, and who is.
const NON_ADMINS: [&str; 3] = [GUEST, "alice", "bob"];
const ADMIN: &str = "admin";

/// The seeded farm with `main`'s configuration saved (so its documents and class exist) with
/// a description, a page linking to the configuration document, and a stand-in for it: space
/// `Vault` (only the admin may view it) holds `Vault.ServerConfig`, with an object of the class
/// `Vault.ServerConfigClass`, linked from the same page.
fn farm() -> Farm {
    let farm = Farm::new();
    farm.configure("main", |config| {
        config.description = Some("Internal endpoint; blacklist: Payroll".to_owned());
    });
    farm.save(
        "Sandbox.Settings",
        "See [the configuration](MCP.ServerConfig) and [the vault](Vault.ServerConfig).\n",
        "link",
    );
    ok(farm.store.set_right(&RightRule {
        scope: RightScope::Space {
            wiki: wiki("main"),
            space: ok(wiki_tool_sdk::store::reference::SpacePath::parse("Vault")),
        },
        subject: Subject::User(ADMIN.to_owned()),
        right: Right::View,
        effect: Effect::Allow,
    }));
    ok(farm.store.change_class(&ClassChange {
        class_document: reference("Vault.ServerConfigClass"),
        change: FieldChange::Add {
            rules: Default::default(),
            name: "guest_access".to_owned(),
            field_type: FieldType::Boolean,
            pretty_name: None,
        },
        author: ADMIN.to_owned(),
        comment: "class".to_owned(),
        major: false,
        expected: Expected::Any,
    }));
    ok(farm.store.save_document(
        &DocumentSave::new(reference("Vault.ServerConfig"), "", ADMIN).hidden(true),
    ));
    ok(farm.store.write_object(&ObjectWrite {
        reference: reference("Vault.ServerConfig"),
        class: "Vault.ServerConfigClass".to_owned(),
        number: None,
        values: [("guest_access".to_owned(), "1".to_owned())].into(),
        title: None,
        author: ADMIN.to_owned(),
        comment: "object".to_owned(),
        major: false,
        expected: Expected::Any,
    }));
    farm
}

async fn call(farm: &Farm, tool: &str, arguments: Value, user: &str) -> Result<String, String> {
    farm.call(tool, arguments, user, "main").await
}

/// `arguments` with every string value's `from` replaced by `to`.
fn renamed(arguments: &Value, from: &str, to: &str) -> Value {
    match arguments {
        Value::String(text) => Value::String(text.replace(from, to)),
        Value::Array(items) => Value::Array(items.iter().map(|v| renamed(v, from, to)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), renamed(value, from, to)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// For every non-admin, `tool` on the configuration (`arguments`) answers exactly what it
/// answers on the admin-only stand-in (`Vault.` for `MCP.` in the arguments), with the name
/// substituted back; the admin gets an answer that differs from what they get.
async fn as_if_not_viewable(farm: &Farm, tool: &str, arguments: Value) {
    let stand_in = renamed(&arguments, "MCP.", "Vault.");
    let masked = |answer: Result<String, String>| {
        answer.map_or_else(
            |error| Err(error.replace("MCP.", "Vault.")),
            |output| Ok(output.replace("MCP.", "Vault.")),
        )
    };
    for user in NON_ADMINS {
        let configuration = masked(call(farm, tool, arguments.clone(), user).await);
        let hidden = call(farm, tool, stand_in.clone(), user).await;
        assert_eq!(
            configuration, hidden,
            "{tool} {arguments} as {user} tells the configuration from a page it cannot view"
        );
    }
    let admin = call(farm, tool, arguments.clone(), ADMIN).await;
    let user = call(farm, tool, arguments.clone(), "alice").await;
    assert_ne!(
        admin, user,
        "{tool} {arguments}: the admin sees the configuration"
    );
}

#[backend_test]
async fn the_configuration_documents_read_as_not_viewable_for_non_admins() {
    let farm = farm();
    for document in ["MCP.ServerConfig", "MCP.ServerConfigClass"] {
        for (tool, arguments) in [
            ("get_document", json!({"reference": document})),
            ("get_history", json!({"reference": document})),
            (
                "get_links",
                json!({"reference": document, "direction": "in"}),
            ),
            ("query_objects", json!({"document": document})),
        ] {
            as_if_not_viewable(&farm, tool, arguments).await;
        }
    }
    let admin = text(
        call(
            &farm,
            "get_document",
            json!({"reference": "MCP.ServerConfig"}),
            ADMIN,
        )
        .await,
    );
    assert!(admin.contains("MCP.ServerConfig"), "{admin}");
}

#[backend_test]
async fn the_configuration_class_reads_as_not_viewable_for_non_admins() {
    let farm = farm();
    let class = "MCP.ServerConfigClass";
    for (tool, arguments) in [
        ("get_schema", json!({"class": class})),
        ("query_objects", json!({"class": class})),
        (
            "query_objects",
            json!({"class": class, "filters": ["guest_access = 1"]}),
        ),
    ] {
        as_if_not_viewable(&farm, tool, arguments).await;
    }
    for user in NON_ADMINS {
        let catalog = text(call(&farm, "get_schema", json!({}), user).await);
        assert!(!catalog.contains("MCP."), "as {user}:\n{catalog}");
    }
    let catalog = text(call(&farm, "get_schema", json!({}), ADMIN).await);
    assert!(catalog.contains("MCP.ServerConfigClass"), "{catalog}");
}

#[backend_test]
async fn search_and_the_tree_never_list_the_configuration_for_non_admins() {
    let farm = farm();
    let listings = [
        (
            "query_documents",
            json!({"space": "MCP", "includeHidden": true}),
        ),
        (
            "query_documents",
            json!({"query": "ServerConfig", "includeHidden": true}),
        ),
        ("get_tree", json!({"showHidden": true})),
        (
            "get_links",
            json!({"reference": "Sandbox.Settings", "direction": "out"}),
        ),
    ];
    for user in NON_ADMINS {
        for (tool, arguments) in &listings {
            let answer = call(&farm, tool, arguments.clone(), user).await;
            let shown = answer.unwrap_or_else(|error| error);
            // The outgoing link is the linking page's own text: it may name the target, but
            // never as an existing page.
            if *tool == "get_links" {
                assert!(
                    !shown.contains("ServerConfigClass"),
                    "{tool} as {user}:\n{shown}"
                );
                continue;
            }
            // A search may find a page that mentions the configuration (Sandbox.Settings does),
            // never the configuration itself; the tree never shows the MCP space.
            let listed = match *tool {
                "query_documents" => shown.contains("Reference: main:MCP."),
                _ => shown.contains("MCP"),
            };
            assert!(
                !listed,
                "{tool} {arguments} as {user} lists the configuration:\n{shown}"
            );
        }
    }
    // The configuration's space (no home page, every page the administrators') reads as a
    // space that does not exist.
    for user in NON_ADMINS {
        let root = |space: &str| json!({"root": format!("{space}.WebHome"), "showHidden": true});
        let configuration = call(&farm, "get_tree", root("MCP"), user).await;
        let nowhere = call(&farm, "get_tree", root("Nowhere"), user).await;
        assert_eq!(
            configuration.map_err(|error| error.replace("MCP.", "Nowhere.")),
            nowhere,
            "get_tree root=MCP as {user}"
        );
    }
    let tree = text(call(&farm, "get_tree", json!({"showHidden": true}), ADMIN).await);
    assert!(tree.contains("MCP"), "{tree}");
    let browse = text(
        call(
            &farm,
            "query_documents",
            json!({"space": "MCP", "includeHidden": true}),
            ADMIN,
        )
        .await,
    );
    assert!(browse.contains("MCP.ServerConfig"), "{browse}");
}
