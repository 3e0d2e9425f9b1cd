//! Object values end to end: a date-only field reads back as a date and refuses a
//! time of day instead of dropping it, and an empty value clears a field that is not text.

use serde_json::json;
use wiki_store::testing::backend_test;

use crate::field_rules::{call, farm_with};
use crate::harness::{Farm, ok};
use crate::write_attachment::version;

const CLASS: &str = "Plans.StepClass";

fn farm() -> Farm {
    farm_with(&["query_objects", "write_object", "write_schema"])
}

fn base(farm: &Farm, text: &str) -> Option<String> {
    version(farm, text).map(|v| v.to_string())
}

/// `due` (a date-only Date) and `effort` (an integer).
async fn step_class(farm: &Farm) {
    ok(call(
        farm,
        "write_schema",
        json!({"reference": CLASS, "operation": "add_field", "field": "due", "type": "Date",
               "attributes": {"date_only": "true"}}),
    )
    .await);
    ok(call(
        farm,
        "write_schema",
        json!({"reference": CLASS, "operation": "add_field", "field": "effort",
               "type": "Number", "base_version": base(farm, CLASS)}),
    )
    .await);
}

#[backend_test]
async fn a_date_only_field_reads_as_a_date_and_refuses_a_time_of_day() {
    let farm = farm();
    step_class(&farm).await;
    let refused = call(
        &farm,
        "write_object",
        json!({"reference": "Plans.Step1", "class": CLASS,
               "fields": {"due": "2026-12-01T09:30:00Z"}}),
    )
    .await;
    assert_eq!(
        refused,
        Err(
            "Error: the field \"due\" expects a date without a time of day, e.g. 2026-11-30: \
             it holds a date only, so drop the time (or make the field a date-time with \
             date_only=false). Nothing was saved."
                .to_owned()
        )
    );
    assert_eq!(version(&farm, "Plans.Step1"), None, "nothing was created");
    ok(call(
        &farm,
        "write_object",
        json!({"reference": "Plans.Step1", "class": CLASS, "fields": {"due": "2026-12-01"}}),
    )
    .await);
    let listed = ok(call(&farm, "query_objects", json!({"class": CLASS})).await);
    assert!(listed.contains("\n  due: 2026-12-01\n"), "{listed}");
    assert!(!listed.contains("T00:00"), "{listed}");
}

#[backend_test]
async fn an_empty_value_clears_a_number_and_a_date() {
    let farm = farm();
    step_class(&farm).await;
    ok(call(
        &farm,
        "write_object",
        json!({"reference": "Plans.Step1", "class": CLASS,
               "fields": {"due": "2026-12-01", "effort": "3"}}),
    )
    .await);
    let cleared = ok(call(
        &farm,
        "write_object",
        json!({"reference": "Plans.Step1", "class": CLASS, "object": 0,
               "fields": {"due": "", "effort": ""}, "base_version": base(&farm, "Plans.Step1")}),
    )
    .await);
    assert!(
        cleared.starts_with("Updated Plans.StepClass object 0"),
        "{cleared}"
    );
    let full = ok(call(
        &farm,
        "query_objects",
        json!({"class": CLASS, "document": "Plans.Step1", "number": 0}),
    )
    .await);
    assert!(
        !full.contains("due:") && !full.contains("effort:"),
        "{full}"
    );
}
