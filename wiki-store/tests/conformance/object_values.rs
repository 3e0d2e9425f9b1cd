//! What a written value means beyond its type's grammar: an empty value clears a field that is
//! not text, and a date-only field refuses a time of day rather than dropping it.

use wiki_store::model::document::SaveOutcome;
use wiki_store::model::object::FieldValue;
use wiki_store::testing::backend_test;
use wiki_store::{InvalidInput, StoreError};

use crate::harness::{Fixture, reference};
use crate::objects::{task_class, write};

#[backend_test]
fn an_empty_value_clears_a_field_that_is_not_text(db: &Fixture) {
    let store = db.store();
    task_class(&*store);
    store
        .write_object(&write(
            "Tasks.One",
            None,
            &[
                ("title", "Plan"),
                ("priority", "3"),
                ("done", "true"),
                ("due", "2026-11-30"),
                ("tags", "a|b"),
            ],
        ))
        .unwrap();
    let cleared = store
        .write_object(&write(
            "Tasks.One",
            Some(0),
            &[("priority", ""), ("done", " "), ("due", ""), ("tags", "")],
        ))
        .unwrap();
    assert!(matches!(cleared.document, SaveOutcome::Updated { .. }));
    let values = &store.objects(&reference("Tasks.One")).unwrap()[0].values;
    assert_eq!(
        values.keys().collect::<Vec<_>>(),
        ["title"],
        "the cleared fields are unset"
    );

    // Clearing what is already unset changes nothing; an empty text is a value.
    let again = store
        .write_object(&write("Tasks.One", Some(0), &[("priority", "")]))
        .unwrap();
    assert!(matches!(again.document, SaveOutcome::Unchanged { .. }));
    store
        .write_object(&write("Tasks.One", Some(0), &[("title", "")]))
        .unwrap();
    let values = &store.objects(&reference("Tasks.One")).unwrap()[0].values;
    assert_eq!(values.get("title"), Some(&FieldValue::Text(String::new())));
}

#[backend_test]
fn a_date_only_field_refuses_a_time_of_day(db: &Fixture) {
    let store = db.store();
    task_class(&*store);
    for with_time in [
        "2026-11-30T18:00:00Z",
        "2026-11-30 09:30",
        "2026-11-30T00:00:00+02:00",
    ] {
        let refused = store.write_object(&write("Tasks.One", None, &[("due", with_time)]));
        assert!(
            matches!(
                &refused,
                Err(StoreError::Invalid(InvalidInput::FieldValue { field, expected }))
                    if field == "due" && expected.contains("without a time of day")
            ),
            "{with_time}: {refused:?}"
        );
    }
    assert!(
        store
            .document(&reference("Tasks.One"), None)
            .unwrap()
            .is_none()
    );
    store
        .write_object(&write(
            "Tasks.One",
            None,
            &[("due", "2026-11-30T00:00:00Z")],
        ))
        .unwrap();
    let values = &store.objects(&reference("Tasks.One")).unwrap()[0].values;
    assert!(matches!(
        values.get("due"),
        Some(FieldValue::Date(date)) if date.to_string().starts_with("2026-11-30 0:00:00")
    ));
}
