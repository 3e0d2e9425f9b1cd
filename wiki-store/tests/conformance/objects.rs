//! Classes, objects and object queries.

use std::collections::BTreeMap;

use wiki_store::model::class::{FieldType, NumberKind};
use wiki_store::model::document::{Expected, SaveOutcome};
use wiki_store::model::mcp_config::MCP_CONFIG_CLASS;
use wiki_store::model::object::{ClassChange, FieldChange, FieldValue, ObjectDelete, ObjectWrite};
use wiki_store::model::version::Version;
use wiki_store::model::wiki::WikiId;
use wiki_store::objects::query::{FieldFilter, ObjectQuery, SortOrder};
use wiki_store::reference::DocumentReference;
use wiki_store::testing::backend_test;
use wiki_store::{Entity, InvalidInput, Store, StoreError};

use crate::harness::{Fixture, reference, v};

/// The task class most object tests (and the no-op write tests) use.
pub(crate) const CLASS: &str = "Tasks.TaskClass";

fn add(store: &dyn Store, name: &str, field_type: FieldType) -> SaveOutcome {
    store
        .change_class(&ClassChange {
            class_document: reference(CLASS),
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
        .unwrap()
}

pub(crate) fn task_class(store: &dyn Store) {
    add(store, "title", FieldType::String);
    add(store, "priority", FieldType::Number(NumberKind::Integer));
    add(store, "done", FieldType::Boolean);
    add(store, "due", FieldType::Date { date_only: true });
    add(store, "secret", FieldType::Password);
    add(
        store,
        "tags",
        FieldType::StaticList {
            values: vec!["a".into(), "b".into()],
            multiselect: true,
        },
    );
}

/// An update or addition of a `CLASS` object on `document` by alice, with no version check.
pub(crate) fn write(document: &str, number: Option<u32>, values: &[(&str, &str)]) -> ObjectWrite {
    ObjectWrite {
        reference: reference(document),
        class: CLASS.into(),
        number,
        values: values
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
        title: None,
        author: "alice".into(),
        comment: "[AI] set fields".into(),
        major: false,
        expected: Expected::Any,
    }
}

fn version_of(store: &dyn Store, document: &str) -> Option<Version> {
    store
        .document(&reference(document), None)
        .unwrap()
        .map(|d| d.version)
}

#[backend_test]
fn fields_are_added_in_order_and_each_change_saves_the_class_document(db: &Fixture) {
    let store = db.store();
    assert_eq!(
        add(&*store, "title", FieldType::String),
        SaveOutcome::Created { version: v("1.1") }
    );
    assert_eq!(
        add(&*store, "priority", FieldType::Number(NumberKind::Float)),
        SaveOutcome::Updated {
            previous: v("1.1"),
            version: v("1.2")
        }
    );
    let class = store.class(&reference(CLASS)).unwrap().unwrap();
    assert_eq!(class.name, CLASS);
    assert_eq!(class.enabled_names(), ["title", "priority"]);
    assert_eq!(
        class.fields[1].field_type,
        FieldType::Number(NumberKind::Float)
    );
    let again = store.change_class(&ClassChange {
        class_document: reference(CLASS),
        change: FieldChange::Add {
            rules: Default::default(),
            name: "title".into(),
            field_type: FieldType::TextArea,
            pretty_name: None,
        },
        author: "admin".into(),
        comment: String::new(),
        major: false,
        expected: Expected::Any,
    });
    assert!(matches!(
        again,
        Err(StoreError::AlreadyExists {
            entity: Entity::Field,
            ..
        })
    ));
    assert_eq!(
        version_of(&*store, CLASS),
        Some(v("1.2")),
        "a refused change saves nothing"
    );
    assert_eq!(store.class(&reference("Tasks.NotAClass")).unwrap(), None);
}

#[backend_test]
fn objects_are_numbered_per_class_typed_and_masked(db: &Fixture) {
    let store = db.store();
    task_class(&*store);
    let first = store
        .write_object(&write(
            "Tasks.One",
            None,
            &[("title", "Plan"), ("priority", "2"), ("secret", "hunter2")],
        ))
        .unwrap();
    assert_eq!(first.number, 0);
    assert!(first.created_object);
    assert_eq!(first.document, SaveOutcome::Created { version: v("1.1") });
    let second = store
        .write_object(&write(
            "Tasks.One",
            None,
            &[("done", "true"), ("tags", "b|a")],
        ))
        .unwrap();
    assert_eq!(
        (second.number, second.document),
        (
            1,
            SaveOutcome::Updated {
                previous: v("1.1"),
                version: v("1.2")
            }
        )
    );

    let objects = store.objects(&reference("Tasks.One")).unwrap();
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0].values["title"], FieldValue::Text("Plan".into()));
    assert_eq!(objects[0].values["priority"], FieldValue::Integer(2));
    assert_eq!(objects[0].values["secret"], FieldValue::Masked);
    assert_eq!(objects[1].values["done"], FieldValue::Boolean(true));
    assert_eq!(
        objects[1].values["tags"],
        FieldValue::List(vec!["b".into(), "a".into()])
    );

    let mut update = write("Tasks.One", Some(0), &[("priority", "5")]);
    update.expected = Expected::Version(v("1.2"));
    update.title = Some("Task one".into());
    let updated = store.write_object(&update).unwrap();
    assert!(!updated.created_object);
    let document = store
        .document(&reference("Tasks.One"), None)
        .unwrap()
        .unwrap();
    assert_eq!(
        (document.version, document.title.as_str()),
        (v("1.3"), "Task one")
    );
    let values = &store.objects(&reference("Tasks.One")).unwrap()[0].values;
    assert_eq!(
        (&values["priority"], &values["title"]),
        (&FieldValue::Integer(5), &FieldValue::Text("Plan".into()))
    );
    let history = store
        .history(&reference("Tasks.One"), None, 0, 10)
        .unwrap()
        .unwrap();
    assert_eq!(history.total, 3);
    assert!(
        history
            .revisions
            .iter()
            .all(|revision| revision.comment == "[AI] set fields")
    );
}

#[backend_test]
fn bad_writes_are_refused_before_anything_is_written(db: &Fixture) {
    let store = db.store();
    task_class(&*store);
    store
        .write_object(&write("Tasks.One", None, &[("title", "Plan")]))
        .unwrap();
    let unknown = store.write_object(&write("Tasks.One", None, &[("nope", "1")]));
    assert!(matches!(
        unknown,
        Err(StoreError::Invalid(InvalidInput::UnknownField { ref known, .. })) if known.len() == 6
    ));
    let bad_value = store.write_object(&write("Tasks.One", None, &[("priority", "high")]));
    assert!(matches!(
        bad_value,
        Err(StoreError::Invalid(InvalidInput::FieldValue { .. }))
    ));
    let mut stale = write("Tasks.One", Some(0), &[("title", "x")]);
    stale.expected = Expected::Version(v("9.9"));
    assert!(matches!(
        store.write_object(&stale),
        Err(StoreError::VersionConflict { .. })
    ));
    let missing = store.write_object(&write("Tasks.One", Some(7), &[("title", "x")]));
    assert!(matches!(
        missing,
        Err(StoreError::NotFound {
            entity: Entity::Object,
            ..
        })
    ));
    let no_class = store.write_object(&ObjectWrite {
        class: "Tasks.Nothing".into(),
        ..write("Tasks.Two", None, &[])
    });
    assert!(matches!(
        no_class,
        Err(StoreError::NotFound {
            entity: Entity::Class,
            ..
        })
    ));
    assert_eq!(
        version_of(&*store, "Tasks.Two"),
        None,
        "the document was not created"
    );

    assert_eq!(version_of(&*store, "Tasks.One"), Some(v("1.1")));
    let objects = store.objects(&reference("Tasks.One")).unwrap();
    assert_eq!(objects.len(), 1);
    assert_eq!(objects[0].values["title"], FieldValue::Text("Plan".into()));
}

#[backend_test]
fn removing_a_field_hides_its_values_reversibly_and_modify_changes_attributes(db: &Fixture) {
    let store = db.store();
    task_class(&*store);
    store
        .write_object(&write(
            "Tasks.One",
            None,
            &[("title", "Plan"), ("tags", "a")],
        ))
        .unwrap();
    let change = |change: FieldChange| ClassChange {
        class_document: reference(CLASS),
        change,
        author: "admin".into(),
        comment: String::new(),
        major: false,
        expected: Expected::Any,
    };
    store
        .change_class(&change(FieldChange::Remove {
            name: "title".into(),
        }))
        .unwrap();
    assert!(
        !store.objects(&reference("Tasks.One")).unwrap()[0]
            .values
            .contains_key("title")
    );
    assert!(
        store
            .write_object(&write("Tasks.One", Some(0), &[("title", "x")]))
            .is_err()
    );
    store
        .change_class(&change(FieldChange::Add {
            rules: Default::default(),
            name: "title".into(),
            field_type: FieldType::String,
            pretty_name: None,
        }))
        .unwrap();
    assert_eq!(
        store.objects(&reference("Tasks.One")).unwrap()[0].values["title"],
        FieldValue::Text("Plan".into())
    );

    let attributes = BTreeMap::from([("values".to_owned(), "a|b|c".to_owned())]);
    store
        .change_class(&change(FieldChange::Modify {
            name: "tags".into(),
            pretty_name: Some("Tags".into()),
            attributes,
        }))
        .unwrap();
    let class = store.class(&reference(CLASS)).unwrap().unwrap();
    let tags = class.field("tags").unwrap();
    assert_eq!(tags.pretty_name.as_deref(), Some("Tags"));
    assert_eq!(tags.field_type.to_string(), "StaticList(a|b|c) multiselect");
    let bad = BTreeMap::from([("size".to_owned(), "3".to_owned())]);
    let refused = store.change_class(&change(FieldChange::Modify {
        name: "tags".into(),
        pretty_name: None,
        attributes: bad,
    }));
    assert!(matches!(
        refused,
        Err(StoreError::Invalid(InvalidInput::FieldAttribute { .. }))
    ));
    let unknown = store.change_class(&change(FieldChange::Remove {
        name: "nope".into(),
    }));
    assert!(matches!(
        unknown,
        Err(StoreError::Invalid(InvalidInput::UnknownField { .. }))
    ));
}

#[backend_test]
fn deleting_an_object_keeps_the_other_numbers(db: &Fixture) {
    let store = db.store();
    task_class(&*store);
    for title in ["a", "b", "c"] {
        store
            .write_object(&write("Tasks.One", None, &[("title", title)]))
            .unwrap();
    }
    let delete = ObjectDelete {
        reference: reference("Tasks.One"),
        class: CLASS.into(),
        number: 1,
        author: "alice".into(),
        comment: "[AI] deleted object".into(),
        expected: Expected::Version(v("1.3")),
    };
    assert_eq!(
        store.delete_object(&delete).unwrap(),
        SaveOutcome::Updated {
            previous: v("1.3"),
            version: v("1.4")
        }
    );
    let numbers: Vec<u32> = store
        .objects(&reference("Tasks.One"))
        .unwrap()
        .iter()
        .map(|o| o.number)
        .collect();
    assert_eq!(numbers, [0, 2]);
    assert!(matches!(
        store.delete_object(&ObjectDelete {
            expected: Expected::Any,
            ..delete
        }),
        Err(StoreError::NotFound {
            entity: Entity::Object,
            ..
        })
    ));
}

#[backend_test]
fn the_configuration_class_is_reserved(db: &Fixture) {
    let store = db.store();
    let refused = store.write_object(&ObjectWrite {
        class: MCP_CONFIG_CLASS.into(),
        ..write("A.B", None, &[])
    });
    assert!(matches!(
        refused,
        Err(StoreError::Invalid(InvalidInput::ReservedClass { .. }))
    ));
    let schema = store.change_class(&ClassChange {
        class_document: reference(MCP_CONFIG_CLASS),
        change: FieldChange::Add {
            rules: Default::default(),
            name: "enabled".into(),
            field_type: FieldType::Boolean,
            pretty_name: None,
        },
        author: "admin".into(),
        comment: String::new(),
        major: false,
        expected: Expected::Any,
    });
    assert!(matches!(
        schema,
        Err(StoreError::Invalid(InvalidInput::ReservedClass { .. }))
    ));
    let other_wiki = store.write_object(&ObjectWrite {
        class: format!("dev:{CLASS}"),
        ..write("A.B", None, &[])
    });
    assert!(matches!(
        other_wiki,
        Err(StoreError::Invalid(InvalidInput::Name {
            what: "class",
            ..
        }))
    ));
}

fn seeded_tasks(store: &dyn Store) {
    task_class(store);
    let rows = [
        ("Tasks.A", "Alpha plan", "1", "false", "2026-12-01"),
        ("Tasks.B", "Beta", "3", "true", "2026-11-01"),
        ("Tasks.C", "Gamma plan 50%", "2", "false", "2026-12-24"),
        ("Private.D", "Delta plan", "5", "false", "2026-10-01"),
    ];
    for (document, title, priority, done, due) in rows {
        let values = [
            ("title", title),
            ("priority", priority),
            ("done", done),
            ("due", due),
        ];
        store.write_object(&write(document, None, &values)).unwrap();
    }
    store
        .write_object(&write("Tasks.E", None, &[("title", "No priority plan")]))
        .unwrap();
}

fn query(filters: &[&str], sort: Option<(&str, SortOrder)>) -> ObjectQuery {
    ObjectQuery {
        class: CLASS.into(),
        document: None,
        filters: filters
            .iter()
            .map(|f| f.parse::<FieldFilter>().unwrap())
            .collect(),
        sort: sort.map(|(field, order)| (field.to_owned(), order)),
    }
}

fn names(
    store: &dyn Store,
    query: &ObjectQuery,
    offset: usize,
    limit: usize,
) -> (Vec<String>, usize) {
    let page = store
        .query_objects(&WikiId::main(), query, offset, limit, &mut |_| true)
        .unwrap();
    (
        page.hits.iter().map(|hit| hit.reference.local()).collect(),
        page.total,
    )
}

#[backend_test]
fn object_queries_filter_by_type_sort_and_page(db: &Fixture) {
    let store = db.store();
    seeded_tasks(&*store);
    let all = names(&*store, &query(&[], None), 0, 25);
    assert_eq!(
        all,
        (
            vec![
                "Private.D".into(),
                "Tasks.A".into(),
                "Tasks.B".into(),
                "Tasks.C".into(),
                "Tasks.E".into()
            ],
            5
        )
    );
    assert_eq!(
        names(
            &*store,
            &query(&["priority > 1"], Some(("priority", SortOrder::Asc))),
            0,
            25
        )
        .0,
        ["Tasks.C", "Tasks.B", "Private.D"]
    );
    assert_eq!(
        names(
            &*store,
            &query(&["priority < 3", "done = false"], None),
            0,
            25
        )
        .0,
        ["Tasks.A", "Tasks.C"]
    );
    assert_eq!(
        names(&*store, &query(&["done != false"], None), 0, 25).0,
        ["Tasks.B"]
    );
    assert_eq!(
        names(&*store, &query(&["title contains PLAN"], None), 0, 25).1,
        4,
        "contains is case-insensitive"
    );
    assert_eq!(
        names(&*store, &query(&["title contains 50%"], None), 0, 25).0,
        ["Tasks.C"],
        "% is literal"
    );
    assert_eq!(
        names(&*store, &query(&["title contains a_p"], None), 0, 25).1,
        0,
        "_ is literal"
    );
    assert_eq!(
        names(&*store, &query(&["due < 2026-11-30"], None), 0, 25).0,
        ["Private.D", "Tasks.B"]
    );
    let by_due = names(&*store, &query(&[], Some(("due", SortOrder::Desc))), 0, 25).0;
    assert_eq!(
        by_due,
        ["Tasks.C", "Tasks.A", "Tasks.B", "Private.D"],
        "objects without a due date are left out"
    );
    let page = names(
        &*store,
        &query(&[], Some(("priority", SortOrder::Asc))),
        1,
        2,
    );
    assert_eq!(page, (vec!["Tasks.C".into(), "Tasks.B".into()], 4));
    let hostile = names(&*store, &query(&["title = x' OR '1'='1"], None), 0, 25);
    assert_eq!(hostile, (vec![], 0));
}

#[backend_test]
fn object_queries_authorize_every_row_before_counting_and_paging(db: &Fixture) {
    let store = db.store();
    seeded_tasks(&*store);
    let mut asked = Vec::new();
    let page = store
        .query_objects(
            &WikiId::main(),
            &query(&["title contains plan"], None),
            0,
            1,
            &mut |reference: &DocumentReference| {
                asked.push(reference.local());
                reference.space().to_string() != "Private"
            },
        )
        .unwrap();
    assert_eq!(page.total, 3, "the denied Private.D is not counted");
    assert_eq!(page.hits.len(), 1);
    assert_eq!(page.hits[0].reference.local(), "Tasks.A");
    assert_eq!(page.hits[0].version, v("1.1"));
    assert!(asked.contains(&"Private.D".to_owned()));
    assert!(!page.truncated);
    let one_document = ObjectQuery {
        document: Some(reference("Tasks.B")),
        ..query(&[], None)
    };
    assert_eq!(names(&*store, &one_document, 0, 25).0, ["Tasks.B"]);
}

/// Regression: the scan window was filled before authorization, so 2,100 objects the
/// caller could not see hid its own and made the total read "0+" (an oracle for them).
#[backend_test]
fn denied_objects_neither_fill_the_scan_window_nor_mark_the_total(db: &Fixture) {
    use wiki_store::objects::query::SCAN_CEILING;
    let store = db.store();
    task_class(&*store);
    // "Hidden" sorts before "Tasks": every denied candidate comes first.
    let denied: Vec<ObjectWrite> = (0..SCAN_CEILING + 100)
        .map(|i| write(&format!("Hidden.P{i:04}"), None, &[("title", "plan")]))
        .collect();
    store.write_objects(&denied).unwrap();
    for document in ["Tasks.A", "Tasks.B", "Tasks.C"] {
        store
            .write_object(&write(document, None, &[("title", "plan")]))
            .unwrap();
    }
    let visible = |reference: &DocumentReference| reference.space().to_string() == "Tasks";
    let page = store
        .query_objects(&WikiId::main(), &query(&[], None), 1, 5, &mut |r| {
            visible(r)
        })
        .unwrap();
    let shown: Vec<String> = page.hits.iter().map(|hit| hit.reference.local()).collect();
    assert_eq!(shown, ["Tasks.B", "Tasks.C"]);
    assert_eq!((page.total, page.truncated), (3, false), "exact, no `+`");

    let everything = store
        .query_objects(&WikiId::main(), &query(&[], None), 0, 1, &mut |_| true)
        .unwrap();
    assert_eq!(
        (everything.total, everything.truncated),
        (SCAN_CEILING, true),
        "the ceiling counts authorized objects"
    );
}

#[backend_test]
fn queries_on_secrets_lists_or_unknown_classes_are_refused(db: &Fixture) {
    let store = db.store();
    seeded_tasks(&*store);
    let refuse =
        |query: ObjectQuery| store.query_objects(&WikiId::main(), &query, 0, 10, &mut |_| true);
    assert!(matches!(
        refuse(query(&["secret = x"], None)),
        Err(StoreError::Invalid(InvalidInput::Query { .. }))
    ));
    assert!(matches!(
        refuse(query(&["tags = a"], None)),
        Err(StoreError::Invalid(InvalidInput::Query { .. }))
    ));
    assert!(matches!(
        refuse(query(&[], Some(("secret", SortOrder::Asc)))),
        Err(StoreError::Invalid(InvalidInput::Query { .. }))
    ));
    assert!(matches!(
        refuse(query(&["priority = high"], None)),
        Err(StoreError::Invalid(InvalidInput::FieldValue { .. }))
    ));
    assert!(matches!(
        refuse(ObjectQuery {
            class: "Tasks.None".into(),
            ..query(&[], None)
        }),
        Err(StoreError::NotFound {
            entity: Entity::Class,
            ..
        })
    ));
    let usage = store.class_usage(&WikiId::main()).unwrap();
    assert_eq!(usage.len(), 1);
    assert_eq!((usage[0].class.as_str(), usage[0].objects), (CLASS, 5));
}

#[backend_test]
fn object_attachment_and_content_writes_share_one_compare_and_set(db: &Fixture) {
    use std::sync::{Arc, Barrier};
    use wiki_store::model::attachment::AttachmentWrite;
    use wiki_store::model::document::DocumentSave;

    const WRITERS: usize = 9;
    let store = db.store();
    task_class(&*store);
    store
        .save_document(&DocumentSave::new(reference("Race.Page"), "start", "alice"))
        .unwrap();
    let base = v("1.1");
    let barrier = Arc::new(Barrier::new(WRITERS));
    let handles: Vec<_> = (0..WRITERS)
        .map(|i| {
            let store = if i % 2 == 0 {
                store.clone()
            } else {
                db.reopen()
            };
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                barrier.wait();
                let expected = Expected::Version(base);
                match i % 3 {
                    0 => store
                        .write_object(&ObjectWrite {
                            expected,
                            ..write("Race.Page", None, &[("title", "x")])
                        })
                        .map(|outcome| outcome.document.version()),
                    1 => store
                        .write_attachment(&AttachmentWrite {
                            reference: reference("Race.Page"),
                            name: format!("f{i}.txt"),
                            content: b"x".to_vec(),
                            author: "bob".into(),
                            comment: String::new(),
                            expected,
                        })
                        .map(|outcome| outcome.document.version()),
                    _ => store
                        .save_document(
                            &DocumentSave::new(reference("Race.Page"), format!("w{i}"), "carol")
                                .expected(expected),
                        )
                        .map(|outcome| outcome.version()),
                }
            })
        })
        .collect();
    let results: Vec<_> = handles
        .into_iter()
        .map(|handle| handle.join().unwrap())
        .collect();
    let winners: Vec<&Version> = results
        .iter()
        .filter_map(|result| result.as_ref().ok())
        .collect();
    assert_eq!(winners, [&v("1.2")], "{results:?}");
    assert!(
        results
            .iter()
            .filter(|r| r.is_err())
            .all(|r| matches!(r, Err(StoreError::VersionConflict { .. }))),
        "{results:?}"
    );
    assert_eq!(version_of(&*store, "Race.Page"), Some(v("1.2")));
    assert_eq!(
        store
            .history(&reference("Race.Page"), None, 0, 10)
            .unwrap()
            .unwrap()
            .total,
        2
    );
}

#[backend_test]
fn a_batch_of_object_writes_is_all_or_nothing(db: &Fixture) {
    let store = db.store();
    task_class(&*store);
    let good = write("Tasks.A", None, &[("title", "a")]);
    let bad = write("Tasks.B", None, &[("priority", "high")]);
    assert!(store.write_objects(&[good.clone(), bad]).is_err());
    assert_eq!(
        version_of(&*store, "Tasks.A"),
        None,
        "the first write was rolled back"
    );
    let outcomes = store.write_objects(&[good.clone(), good]).unwrap();
    assert_eq!(
        outcomes.iter().map(|o| o.number).collect::<Vec<_>>(),
        [0, 1]
    );
}
