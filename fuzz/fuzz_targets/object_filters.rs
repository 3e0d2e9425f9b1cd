//! The object-filter parser and the query it becomes (`wiki_store::objects::query`, then the
//! SQLite backend's compiled statement), on a real store.
//!
//! Input: lines of text; the first is the sort (`<field> asc|desc`, or `-` for none), each other
//! one a filter as query_objects receives it (`<field> <op> <value>`).
//!
//! Properties: no input panics; a parsed filter prints back (`field op value`) to itself; a
//! query on a class with a field of every type answers or refuses as invalid input, never with
//! a backend (SQL) failure; and what it answers is exactly what the filters select, in the
//! requested order, checked against every object of the class evaluated here in Rust (`contains`
//! is an ASCII case-insensitive substring test, so `%`, `_` and `\` in a needle are literal).
#![no_main]

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use wiki_store::model::class::{ClassDefinition, FieldType, NumberKind};
use wiki_store::model::document::Expected;
use wiki_store::model::object::{ClassChange, FieldChange, FieldValue, ObjectWrite};
use wiki_store::model::wiki::WikiId;
use wiki_store::objects::coerce::StoredValue;
use wiki_store::objects::query::{
    CheckedQuery, FieldFilter, FilterOp, ObjectQuery, SortOrder, check_query,
};
use wiki_store::reference::DocumentReference;
use wiki_store::{ObjectStore, SqliteStore, StoreError};

const CLASS: &str = "Fuzz.EveryFieldClass";
/// More than the seeded objects, so one page holds every match.
const PAGE: usize = 100;

/// One seeded object: its document, number, and its queryable values as stored.
struct Seeded {
    reference: DocumentReference,
    number: u32,
    values: BTreeMap<String, StoredValue>,
}

struct Fixture {
    store: SqliteStore,
    class: ClassDefinition,
    objects: Vec<Seeded>,
    _dir: tempfile::TempDir,
}

fn fields() -> Vec<(&'static str, FieldType)> {
    vec![
        ("title", FieldType::String),
        ("body", FieldType::TextArea),
        ("count", FieldType::Number(NumberKind::Integer)),
        ("ratio", FieldType::Number(NumberKind::Float)),
        ("done", FieldType::Boolean),
        ("due", FieldType::Date { date_only: true }),
        ("at", FieldType::Date { date_only: false }),
        ("email", FieldType::Email),
        ("page", FieldType::Page),
        (
            "tags",
            FieldType::StaticList {
                values: vec!["a".into(), "b".into(), "c".into()],
                multiselect: true,
            },
        ),
        ("secret", FieldType::Password),
    ]
}

/// Values of the seeded objects, by field; an object without a field has no value for it.
fn object_values(index: usize) -> Vec<(&'static str, String)> {
    let titles = [
        "Plan",
        "plan B",
        "100% done",
        "a_b",
        r"back\slash",
        "Ünïcödé",
        "PLAN",
        "x",
        "Plan (draft)",
        "",
        "tab\there",
        "%_",
    ];
    let mut values = vec![("title", titles[index % titles.len()].to_owned())];
    if index % 3 != 0 {
        values.push(("body", format!("Line one\nline TWO {index}\n50% of _all_")));
    }
    if index % 4 != 1 {
        values.push(("count", (index as i64 * 7 - 20).to_string()));
    }
    if index % 2 == 0 {
        values.push(("ratio", format!("{}", index as f64 / 4.0 - 1.0)));
    }
    values.push(("done", (index % 3 == 1).to_string()));
    if index % 5 != 4 {
        values.push((
            "due",
            format!("2026-{:02}-{:02}", index % 12 + 1, index % 27 + 1),
        ));
    }
    values.push((
        "at",
        format!(
            "2026-11-{:02} {:02}:{:02}",
            index % 28 + 1,
            index % 24,
            index
        ),
    ));
    if index % 2 == 1 {
        values.push(("email", format!("user{index}@example.com")));
    }
    values.push(("page", format!("Data.P{}", (index + 1) % 12)));
    values.push(("tags", ["a", "b", "a|c"][index % 3].to_owned()));
    values.push(("secret", format!("hunter{index}")));
    values
}

/// A value as read back, in the form the backend compares it; `None` for what no filter reaches.
fn comparable(value: &FieldValue) -> Option<StoredValue> {
    match value {
        FieldValue::Text(text) => Some(StoredValue::Text(text.clone())),
        FieldValue::Integer(n) => Some(StoredValue::Integer(*n)),
        FieldValue::Float(x) => Some(StoredValue::Real(*x)),
        FieldValue::Boolean(b) => Some(StoredValue::Integer(i64::from(*b))),
        FieldValue::Date(date) => Some(StoredValue::Integer(date.unix_timestamp())),
        FieldValue::List(_) | FieldValue::Masked => None,
    }
}

static FIXTURE: LazyLock<Fixture> = LazyLock::new(|| {
    let dir = tempfile::tempdir().expect("temporary directory");
    let store = SqliteStore::open(dir.path().join("store")).expect("store");
    let wiki = WikiId::main();
    let class_document = DocumentReference::parse(CLASS, &wiki).expect("class reference");
    for (name, field_type) in fields() {
        store
            .change_class(&ClassChange {
                class_document: class_document.clone(),
                change: FieldChange::Add {
                    rules: Default::default(),
                    name: name.to_owned(),
                    field_type,
                    pretty_name: None,
                },
                author: "fuzz".to_owned(),
                comment: String::new(),
                major: false,
                expected: Expected::Any,
            })
            .expect("add a field");
    }
    let class = store
        .class(&class_document)
        .expect("read the class")
        .expect("the class exists");
    let mut objects = Vec::new();
    for index in 0..24 {
        let reference =
            DocumentReference::parse(&format!("Data.P{}", index % 12), &wiki).expect("reference");
        let values = object_values(index)
            .into_iter()
            .filter(|(_, value)| !value.is_empty())
            .map(|(field, value)| (field.to_owned(), value))
            .collect();
        let outcome = store
            .write_object(&ObjectWrite {
                reference: reference.clone(),
                class: CLASS.to_owned(),
                number: None,
                values,
                title: None,
                author: "fuzz".to_owned(),
                comment: String::new(),
                major: false,
                expected: Expected::Any,
            })
            .expect("seed an object");
        objects.push((reference, outcome.number));
    }
    let objects = objects
        .into_iter()
        .map(|(reference, number)| {
            let records = store.objects(&reference).expect("read the objects back");
            let record = records
                .into_iter()
                .find(|r| r.class == CLASS && r.number == number)
                .expect("the seeded object");
            let values = record
                .values
                .iter()
                .filter_map(|(field, value)| Some((field.clone(), comparable(value)?)))
                .collect();
            Seeded {
                reference,
                number,
                values,
            }
        })
        .collect();
    Fixture {
        store,
        class,
        objects,
        _dir: dir,
    }
});

/// SQLite's ordering of two stored values (numbers before text, numbers by value, text by bytes).
fn compare(a: &StoredValue, b: &StoredValue) -> Ordering {
    match (a, b) {
        (StoredValue::Text(a), StoredValue::Text(b)) => a.as_bytes().cmp(b.as_bytes()),
        (StoredValue::Text(_), _) => Ordering::Greater,
        (_, StoredValue::Text(_)) => Ordering::Less,
        (StoredValue::Integer(a), StoredValue::Integer(b)) => a.cmp(b),
        // SQLite compares numbers by value: -0.0 equals 0.0 (total_cmp would order them).
        (a, b) => {
            let (a, b) = (number(a), number(b));
            a.partial_cmp(&b).unwrap_or_else(|| a.total_cmp(&b))
        }
    }
}

fn number(value: &StoredValue) -> f64 {
    match value {
        StoredValue::Integer(n) => *n as f64,
        StoredValue::Real(x) => *x,
        StoredValue::Text(_) => f64::NAN,
    }
}

/// Whether `object` passes every filter and has a value for the sort field, evaluated here.
fn selects(query: &CheckedQuery, object: &Seeded) -> bool {
    let filters_hold = query.filters.iter().all(|filter| {
        let Some(value) = object.values.get(&filter.field) else {
            return false;
        };
        match filter.op {
            FilterOp::Eq => compare(value, &filter.value) == Ordering::Equal,
            FilterOp::Ne => compare(value, &filter.value) != Ordering::Equal,
            FilterOp::Gt => compare(value, &filter.value) == Ordering::Greater,
            FilterOp::Lt => compare(value, &filter.value) == Ordering::Less,
            FilterOp::Contains => match (value, &filter.value) {
                (StoredValue::Text(text), StoredValue::Text(needle)) => text
                    .to_ascii_lowercase()
                    .contains(&needle.to_ascii_lowercase()),
                _ => false,
            },
        }
    });
    let sortable = query
        .sort
        .as_ref()
        .is_none_or(|(field, _)| object.values.contains_key(field));
    filters_hold && sortable
}

fn parse_sort(line: &str) -> Option<Option<(String, SortOrder)>> {
    if line == "-" {
        return Some(None);
    }
    let (field, order) = line.split_once(' ')?;
    let order = match order {
        "asc" => SortOrder::Asc,
        "desc" => SortOrder::Desc,
        _ => return None,
    };
    Some(Some((field.to_owned(), order)))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.split('\n');
    let Some(Some(sort)) = lines.next().map(parse_sort) else {
        return;
    };
    let mut filters = Vec::new();
    for line in lines {
        let Ok(filter) = line.parse::<FieldFilter>() else {
            continue;
        };
        assert!(!filter.field.is_empty() && !filter.field.contains(char::is_whitespace));
        assert!(!filter.value.is_empty() && filter.value.trim() == filter.value);
        let printed = format!("{} {} {}", filter.field, filter.op, filter.value);
        assert_eq!(
            printed.parse::<FieldFilter>().ok().as_ref(),
            Some(&filter),
            "{line:?}"
        );
        filters.push(filter);
    }
    let fixture = &*FIXTURE;
    let query = ObjectQuery {
        class: CLASS.to_owned(),
        document: None,
        filters,
        sort,
    };
    let answer = fixture
        .store
        .query_objects(&WikiId::main(), &query, 0, PAGE, &mut |_| true);
    let checked = check_query(&fixture.class, &query);
    let page = match (answer, checked) {
        (Ok(page), Ok(checked)) => (page, checked),
        (Err(StoreError::Invalid(_)), Err(StoreError::Invalid(_))) => return,
        (Err(error), _) if !matches!(error, StoreError::Invalid(_)) => {
            panic!("{query:?} failed in the backend: {error:?}")
        }
        (answer, checked) => panic!(
            "the store and check_query disagree on {query:?}: {:?} / {:?}",
            answer.map(|page| page.total),
            checked.map(drop)
        ),
    };
    let (page, checked) = page;

    let expected: Vec<&Seeded> = fixture
        .objects
        .iter()
        .filter(|object| selects(&checked, object))
        .collect();
    let key = |reference: &DocumentReference, number: u32| (reference.local(), number);
    let mut got: Vec<_> = page
        .hits
        .iter()
        .map(|hit| key(&hit.reference, hit.object.number))
        .collect();
    assert_eq!(page.total, expected.len(), "{query:?}");
    assert!(!page.truncated);
    if let Some((field, order)) = &checked.sort {
        let value = |hit: usize| {
            comparable(&page.hits[hit].object.values[field]).expect("a sortable value")
        };
        for hit in 1..page.hits.len() {
            let ordering = compare(&value(hit - 1), &value(hit));
            let wrong = match order {
                SortOrder::Asc => Ordering::Greater,
                SortOrder::Desc => Ordering::Less,
            };
            assert_ne!(
                ordering,
                wrong,
                "{query:?}: hits {} and {hit} out of order",
                hit - 1
            );
        }
    }
    let mut wanted: Vec<_> = expected
        .iter()
        .map(|object| key(&object.reference, object.number))
        .collect();
    got.sort();
    wanted.sort();
    assert_eq!(got, wanted, "{query:?}");
});
