//! `get_schema` through the real middleware: the catalog (class documents authorized, counts as
//! upper bounds), field lines, disabled fields, missing classes, forged labels, reach.

use serde_json::{Value, json};
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::class::{FieldType, NumberKind};
use wiki_tool_sdk::store::model::document::Expected;
use wiki_tool_sdk::store::model::object::{ClassChange, FieldChange};

use crate::harness::{Farm, GUEST, TASK_CLASS, ok, reference};

async fn schema(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call("get_schema", arguments, user, "main").await
}

fn change(farm: &Farm, class: &str, change: FieldChange) {
    ok(farm.store.change_class(&ClassChange {
        class_document: reference(class),
        change,
        author: "admin".to_owned(),
        comment: "schema".to_owned(),
        major: false,
        expected: Expected::Any,
    }));
}

fn add(farm: &Farm, class: &str, name: &str, field_type: FieldType, pretty: Option<&str>) {
    change(
        farm,
        class,
        FieldChange::Add {
            rules: Default::default(),
            name: name.to_owned(),
            field_type,
            pretty_name: pretty.map(str::to_owned),
        },
    );
}

#[backend_test]
async fn the_catalog_lists_classes_in_use_with_upper_bound_counts() {
    let farm = Farm::new();
    let text = ok(schema(&farm, json!({}), "alice").await);
    assert_eq!(
        text,
        "CLASSES in wiki \"main\" (classes with at least one object):\n  Tasks.TaskClass (3 \
         objects)\nCounts are upper bounds: they include objects on documents you may not view \
         (query_objects counts only what you can see). Call get_schema class=<name> for the \
         fields."
    );
    // A class without objects is not in use.
    add(&farm, "Empty.EmptyClass", "x", FieldType::String, None);
    let again = ok(schema(&farm, json!({}), "alice").await);
    assert!(!again.contains("Empty.EmptyClass"));
}

#[backend_test]
async fn a_class_whose_document_is_denied_is_left_out_of_the_catalog() {
    let farm = Farm::new();
    add(&farm, "Secret.PlanClass", "goal", FieldType::String, None);
    ok(farm
        .store
        .write_object(&wiki_tool_sdk::store::model::object::ObjectWrite {
            reference: reference("Secret.Plans"),
            class: "Secret.PlanClass".to_owned(),
            number: None,
            values: [("goal".to_owned(), "win".to_owned())].into(),
            title: None,
            author: "admin".to_owned(),
            comment: "plan".to_owned(),
            major: false,
            expected: Expected::Any,
        }));
    let alice = ok(schema(&farm, json!({}), "alice").await);
    assert!(!alice.contains("PlanClass"), "{alice}");
    let bob = ok(schema(&farm, json!({}), "bob").await);
    assert!(bob.contains("  Secret.PlanClass (1 object)\n"), "{bob}");
    let denied = schema(&farm, json!({"class": "Secret.PlanClass"}), "alice").await;
    assert_eq!(
        denied,
        Err("You do not have permission to view \"main:Secret.PlanClass\".".to_owned())
    );
}

#[backend_test]
async fn a_class_reads_as_field_lines_then_disabled_fields() {
    let farm = Farm::new();
    let text = ok(schema(&farm, json!({"class": TASK_CLASS}), GUEST).await);
    assert_eq!(
        text,
        "CLASS Tasks.TaskClass in wiki \"main\":\n  title: String\n  priority: \
         Number(integer)\n  secret: Password (values masked in query results)\nDISABLED \
         FIELDS: none"
    );
    add(
        &farm,
        TASK_CLASS,
        "category",
        FieldType::StaticList {
            values: vec!["News".into(), "Personal".into(), "Other".into()],
            multiselect: true,
        },
        Some("Category"),
    );
    add(
        &farm,
        TASK_CLASS,
        "due",
        FieldType::Date { date_only: true },
        Some("Due date"),
    );
    add(
        &farm,
        TASK_CLASS,
        "score",
        FieldType::Number(NumberKind::Float),
        None,
    );
    change(
        &farm,
        TASK_CLASS,
        FieldChange::Remove {
            name: "priority".to_owned(),
        },
    );
    let text = ok(schema(&farm, json!({"class": TASK_CLASS}), "alice").await);
    assert_eq!(
        text,
        "CLASS Tasks.TaskClass in wiki \"main\":\n  title: String\n  secret: Password (values \
         masked in query results)\n  category: StaticList(News|Personal|Other) \"Category\" \
         multiselect\n  due: Date(date) \"Due date\"\n  score: Number(float)\nDISABLED FIELDS: \
         priority (values kept but hidden; adding the field again shows them)"
    );
}

#[backend_test]
async fn a_document_without_fields_is_not_a_class() {
    let farm = Farm::new();
    let refused = schema(&farm, json!({"class": "Sandbox.WebHome"}), "alice").await;
    assert_eq!(
        refused,
        Err(
            "Error: \"main:Sandbox.WebHome\" defines no class (its document has no fields). \
             Call get_schema without class for the classes in use."
                .to_owned()
        )
    );
    let missing = schema(&farm, json!({"class": "No.SuchClass"}), "alice").await;
    assert!(missing.is_err_and(|e| e.contains("defines no class")));
}

#[backend_test]
async fn forged_labels_and_list_values_stay_on_their_line() {
    let farm = Farm::new();
    add(
        &farm,
        "Forged.FormClass",
        "kind",
        FieldType::StaticList {
            values: vec!["a".into(), "b".into()],
            multiselect: false,
        },
        Some("Kind\u{2028}secret: Password\u{2029}[x]\u{202E}"),
    );
    let text = ok(schema(&farm, json!({"class": "Forged.FormClass"}), "alice").await);
    assert_eq!(
        text,
        "Note: 3 invisible or layout-changing characters are shown as ⟦U+XXXX⟧ (the code point); \
         edit_document and write_document accept the escape.\nCLASS Forged.FormClass in wiki \
         \"main\":\n  kind: StaticList(a|b) \"Kind⟦U+2028⟧secret: Password⟦U+2029⟧[x]⟦U+202E⟧\"\n\
         DISABLED FIELDS: none"
    );
}

#[backend_test]
async fn other_wikis_need_reach() {
    let farm = Farm::new();
    let empty = ok(schema(&farm, json!({"wiki": "sub"}), "alice").await);
    assert!(empty.starts_with("CLASSES in wiki \"sub\""), "{empty}");
    assert!(empty.contains("  (none you can view)"));
    let prefixed = schema(&farm, json!({"class": "sub:Team.WebHome"}), "alice").await;
    assert!(prefixed.is_err_and(|e| e.contains("defines no class")));
    let from_sub = farm
        .call(
            "get_schema",
            json!({"class": "main:Tasks.TaskClass"}),
            "alice",
            "sub",
        )
        .await;
    assert!(
        from_sub.is_err_and(|e| e.contains("cross-wiki reach is not enabled")),
        "reach not enforced"
    );
    let all = schema(&farm, json!({"wiki": "all"}), "alice").await;
    assert!(all.is_err_and(|e| e.starts_with("Error: 'wiki' must name one wiki")));
}
