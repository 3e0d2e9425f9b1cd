//! The audit category of the bundled tools' own refusals: an operator counting `reason=` values
//! sees what went wrong (a bad argument, a missing page, a budget, a conflict), never `other`, and
//! the record holds no argument.

use mcp_runtime::audit::Outcome;
use mcp_runtime::reason::ErrorKind;
use serde_json::{Value, json};
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::document::DocumentSave;

use crate::harness::{Farm, ok, reference};

/// Calls `tool` as `user` on main, which must refuse, and returns the reason its audit record
/// carries; checks that the record does not quote `secret`, a value of the arguments.
async fn refusal_reason(
    farm: &Farm,
    tool: &str,
    user: &str,
    arguments: Value,
    secret: &str,
) -> Option<ErrorKind> {
    let refused = farm.call(tool, arguments, user, "main").await;
    assert!(refused.is_err(), "{tool} did not refuse: {refused:?}");
    let newest = farm
        .test_farm()
        .manager()
        .recent_calls()
        .newest(1, |record| record.tool == tool);
    let record = newest
        .first()
        .unwrap_or_else(|| panic!("no audit record of {tool}"));
    assert_eq!(record.outcome, Outcome::Error, "{record:?}");
    assert!(
        !format!("{record:?}").contains(secret),
        "the record quotes the arguments: {record:?}"
    );
    record.reason
}

#[backend_test]
async fn each_refusal_is_audited_with_its_category() {
    let farm = Farm::new();
    let tools = [
        "get_document",
        "write_attachment",
        "write_document",
        "delete_document",
        "query_objects",
    ];
    farm.configure("main", |config| {
        config.enabled_tools = tools.iter().map(|id| (*id).to_owned()).collect();
    });
    let missing = refusal_reason(
        &farm,
        "get_document",
        "admin",
        json!({"reference": "Nowhere.Zebra42"}),
        "Zebra42",
    )
    .await;
    assert_eq!(missing, Some(ErrorKind::NotFound));

    let combined = refusal_reason(
        &farm,
        "get_document",
        "admin",
        json!({"reference": "Help.Guide", "rendered": true, "outline": true, "section": "zebra43"}),
        "Zebra43",
    )
    .await;
    assert_eq!(combined, Some(ErrorKind::BadArgument));

    let both = refusal_reason(
        &farm,
        "write_attachment",
        "admin",
        json!({"reference": "Help.Guide", "filename": "zebra44.txt",
               "content": "a", "content_base64": "YQ=="}),
        "zebra44",
    )
    .await;
    assert_eq!(both, Some(ErrorKind::BadArgument));

    let too_large = refusal_reason(
        &farm,
        "write_document",
        "admin",
        json!({"reference": "Main.Zebra45", "content": "z".repeat(1_000_001)}),
        "Zebra45",
    )
    .await;
    assert_eq!(too_large, Some(ErrorKind::Budget));

    for page in ["Zoo.WebHome", "Zoo.Zebra46"] {
        ok(farm
            .store
            .save_document(&DocumentSave::new(reference(page), "zoo", "admin")));
    }
    let not_empty = refusal_reason(
        &farm,
        "delete_document",
        "admin",
        json!({"reference": "Zoo.WebHome", "base_version": "1.1"}),
        "Zebra46",
    )
    .await;
    assert_eq!(not_empty, Some(ErrorKind::Conflict));

    let no_class = refusal_reason(&farm, "query_objects", "admin", json!({}), "zebra").await;
    assert_eq!(no_class, Some(ErrorKind::BadArgument));

    let past_the_end = refusal_reason(
        &farm,
        "get_document",
        "admin",
        json!({"reference": "Zoo.Zebra46", "offset": 9999}),
        "Zebra46",
    )
    .await;
    assert_eq!(past_the_end, Some(ErrorKind::BadArgument));
}

#[backend_test]
async fn structured_data_refusals_are_audited_with_their_category() {
    let farm = Farm::new();
    let tools = ["get_schema", "write_schema", "write_object"];
    farm.configure("main", |config| {
        config.enabled_tools = tools.iter().map(|id| (*id).to_owned()).collect();
    });
    ok(farm.store.save_document(&DocumentSave::new(
        reference("Zoo.Zebra47"),
        "no fields here",
        "admin",
    )));
    let no_class = refusal_reason(
        &farm,
        "get_schema",
        "admin",
        json!({"class": "Zoo.Zebra47"}),
        "Zebra47",
    )
    .await;
    assert_eq!(no_class, Some(ErrorKind::NotFound));

    let no_type = refusal_reason(
        &farm,
        "write_schema",
        "admin",
        json!({"reference": "Zoo.Zebra48Class", "operation": "add_field", "field": "zebra48"}),
        "zebra48",
    )
    .await;
    assert_eq!(no_type, Some(ErrorKind::BadArgument));

    let nothing_to_modify = refusal_reason(
        &farm,
        "write_schema",
        "admin",
        json!({"reference": "Zoo.Zebra47", "operation": "remove_field", "field": "zebra49", "base_version": "1.1"}),
        "zebra49",
    )
    .await;
    assert_eq!(nothing_to_modify, Some(ErrorKind::NotFound));

    let no_fields = refusal_reason(
        &farm,
        "write_object",
        "admin",
        json!({"reference": "Zoo.Zebra47", "class": "Zoo.Zebra47", "fields": {}}),
        "Zebra47",
    )
    .await;
    assert_eq!(no_fields, Some(ErrorKind::BadArgument));

    let unknown_class = refusal_reason(
        &farm,
        "write_object",
        "admin",
        json!({"reference": "Zoo.Zebra47", "class": "Zoo.Zebra47", "fields": {"zebra50": "z"}}),
        "zebra50",
    )
    .await;
    assert_eq!(unknown_class, Some(ErrorKind::NotFound));
}
