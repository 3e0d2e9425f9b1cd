//! Object queries checked against a model: random objects, random typed filters and sorts, and
//! the compiled SQL must return exactly what a plain in-memory filter and sort return.

use std::cell::Cell;
use std::cmp::Ordering;
use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use wiki_store::Store;
use wiki_store::model::class::{FieldType, NumberKind};
use wiki_store::model::document::Expected;
use wiki_store::model::object::{ClassChange, FieldChange, ObjectWrite};
use wiki_store::model::wiki::WikiId;
use wiki_store::objects::query::{FieldFilter, ObjectQuery, SortOrder};
use wiki_store::testing::backend_test;

use crate::harness::{Fixture, reference};

const DAY: i64 = 86_400;
/// 2026-01-01T00:00:00Z.
const JANUARY_FIRST: i64 = 1_767_225_600;

/// One object's values, as the model sees them (`None`: not set).
#[derive(Debug, Clone)]
struct Item {
    n: Option<i64>,
    x: Option<f64>,
    s: Option<String>,
    b: Option<bool>,
    d: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Value<'a> {
    Int(i64),
    Real(f64),
    Text(&'a str),
}

impl Item {
    fn get(&self, field: &str) -> Option<Value<'_>> {
        match field {
            "n" => self.n.map(Value::Int),
            "x" => self.x.map(Value::Real),
            "s" => self.s.as_deref().map(Value::Text),
            "b" => self.b.map(|b| Value::Int(i64::from(b))),
            _ => self.d.map(|days| Value::Int(JANUARY_FIRST + days * DAY)),
        }
    }

    fn values(&self) -> BTreeMap<String, String> {
        let mut values = BTreeMap::new();
        let mut set = |name: &str, value: Option<String>| {
            if let Some(value) = value {
                values.insert(name.to_owned(), value);
            }
        };
        set("n", self.n.map(|n| n.to_string()));
        set("x", self.x.map(|x| x.to_string()));
        set("s", self.s.clone());
        set("b", self.b.map(|b| b.to_string()));
        set("d", self.d.map(|days| format!("2026-01-{:02}", days + 1)));
        values
    }
}

fn compare(a: Value<'_>, b: Value<'_>) -> Option<Ordering> {
    match (a, b) {
        (Value::Int(a), Value::Int(b)) => Some(a.cmp(&b)),
        (Value::Real(a), Value::Real(b)) => a.partial_cmp(&b),
        (Value::Text(a), Value::Text(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
        _ => None,
    }
}

/// A filter as text plus what the model compares against.
#[derive(Debug, Clone)]
struct Filter {
    field: &'static str,
    op: &'static str,
    literal: String,
}

impl Filter {
    fn model_value(&self) -> Value<'_> {
        match self.field {
            "n" => Value::Int(self.literal.parse().unwrap()),
            "x" => Value::Real(self.literal.parse().unwrap()),
            "b" => Value::Int(i64::from(self.literal == "true")),
            "d" => {
                let day: i64 = self.literal[8..].parse().unwrap();
                Value::Int(JANUARY_FIRST + (day - 1) * DAY)
            }
            _ => Value::Text(&self.literal),
        }
    }

    fn accepts(&self, item: &Item) -> bool {
        let Some(value) = item.get(self.field) else {
            return false;
        };
        if self.op == "contains" {
            let Value::Text(text) = value else {
                return false;
            };
            return text
                .to_ascii_lowercase()
                .contains(&self.literal.to_ascii_lowercase());
        }
        let ordering = compare(value, self.model_value());
        match self.op {
            "=" => ordering == Some(Ordering::Equal),
            "!=" => ordering.is_some_and(|o| o != Ordering::Equal),
            ">" => ordering == Some(Ordering::Greater),
            _ => ordering == Some(Ordering::Less),
        }
    }
}

/// Short texts over letters of both cases, LIKE's wildcards, its escape and inner spaces (the
/// filter grammar trims a value, so none starts or ends with a space).
fn text_strategy() -> impl Strategy<Value = String> {
    proptest::string::string_regex(r"[aA%_\\]([aA%_\\ ]?[aA%_\\])?").unwrap()
}

fn item_strategy() -> impl Strategy<Value = Item> {
    (
        proptest::option::of(-3i64..4),
        proptest::option::of((-4i32..5).prop_map(|half| f64::from(half) / 2.0)),
        proptest::option::of(text_strategy()),
        proptest::option::of(any::<bool>()),
        proptest::option::of(0i64..5),
    )
        .prop_map(|(n, x, s, b, d)| Item { n, x, s, b, d })
}

fn filter_strategy() -> impl Strategy<Value = Filter> {
    let op = || prop_oneof![Just("="), Just("!="), Just(">"), Just("<")];
    prop_oneof![
        1 => (op(), -3i64..4).prop_map(|(op, n)| Filter {
            field: "n",
            op,
            literal: n.to_string()
        }),
        1 => (op(), -4i32..5).prop_map(|(op, half)| Filter {
            field: "x",
            op,
            literal: (f64::from(half) / 2.0).to_string()
        }),
        1 => (op(), text_strategy()).prop_map(|(op, s)| Filter {
            field: "s",
            op,
            literal: s
        }),
        // Weighted up: `contains` has the most ways to go wrong (case, wildcards, escapes).
        3 => proptest::string::string_regex(r"[aA%_\\]{1,2}").unwrap().prop_map(|s| Filter {
            field: "s",
            op: "contains",
            literal: s
        }),
        1 => (op(), any::<bool>()).prop_map(|(op, b)| Filter {
            field: "b",
            op,
            literal: b.to_string()
        }),
        1 => (op(), 1i64..6).prop_map(|(op, day)| Filter {
            field: "d",
            op,
            literal: format!("2026-01-{day:02}")
        }),
    ]
}

fn sort_strategy() -> impl Strategy<Value = Option<(&'static str, SortOrder)>> {
    proptest::option::of((
        prop_oneof![Just("n"), Just("x"), Just("s"), Just("b"), Just("d")],
        prop_oneof![Just(SortOrder::Asc), Just(SortOrder::Desc)],
    ))
}

fn define_class(store: &dyn Store, class: &str) {
    let fields = [
        ("n", FieldType::Number(NumberKind::Integer)),
        ("x", FieldType::Number(NumberKind::Float)),
        ("s", FieldType::String),
        ("b", FieldType::Boolean),
        ("d", FieldType::Date { date_only: true }),
    ];
    for (name, field_type) in fields {
        store
            .change_class(&ClassChange {
                class_document: reference(class),
                change: FieldChange::Add {
                    rules: Default::default(),
                    name: name.into(),
                    field_type,
                    pretty_name: None,
                },
                author: "admin".into(),
                comment: String::new(),
                major: false,
                expected: Expected::Any,
            })
            .unwrap();
    }
}

/// The model's answer: documents in result order.
fn model(items: &[Item], filters: &[Filter], sort: Option<(&str, SortOrder)>) -> Vec<String> {
    let mut hits: Vec<(usize, &Item)> = items
        .iter()
        .enumerate()
        .filter(|(_, item)| filters.iter().all(|f| f.accepts(item)))
        .collect();
    if let Some((field, order)) = sort {
        hits.retain(|(_, item)| item.get(field).is_some());
        hits.sort_by(|(ia, a), (ib, b)| {
            let by_value = match (a.get(field), b.get(field)) {
                (Some(va), Some(vb)) => compare(va, vb).unwrap_or(Ordering::Equal),
                _ => Ordering::Equal,
            };
            let by_value = if order == SortOrder::Desc {
                by_value.reverse()
            } else {
                by_value
            };
            by_value.then(ia.cmp(ib))
        });
    }
    hits.into_iter()
        .map(|(index, _)| format!("P{index:02}"))
        .collect()
}

#[backend_test]
fn compiled_queries_agree_with_the_model(db: &Fixture) {
    // One store for every case (a fresh class per case keeps them apart): opening a database
    // per case would dominate the run.
    let store = db.store();
    let case = Cell::new(0usize);
    let strategy = (
        proptest::collection::vec(item_strategy(), 3..14),
        proptest::collection::vec(filter_strategy(), 0..3),
        sort_strategy(),
    );
    let mut runner = TestRunner::new(ProptestConfig::with_cases(96));
    let outcome = runner.run(&strategy, |(items, filters, sort)| {
        case.set(case.get() + 1);
        let class = format!("Model.Class{}", case.get());
        define_class(&*store, &class);
        let writes: Vec<ObjectWrite> = items
            .iter()
            .enumerate()
            .map(|(index, item)| ObjectWrite {
                reference: reference(&format!("Case{}.P{index:02}", case.get())),
                class: class.clone(),
                number: None,
                values: item.values(),
                title: None,
                author: "alice".into(),
                comment: String::new(),
                major: false,
                expected: Expected::Any,
            })
            .collect();
        store.write_objects(&writes).unwrap();
        let query = ObjectQuery {
            class,
            document: None,
            filters: filters
                .iter()
                .map(|f| {
                    format!("{} {} {}", f.field, f.op, f.literal)
                        .parse::<FieldFilter>()
                        .unwrap()
                })
                .collect(),
            sort: sort.map(|(field, order)| (field.to_owned(), order)),
        };
        let page = store
            .query_objects(&WikiId::main(), &query, 0, 100, &mut |_| true)
            .unwrap();
        let found: Vec<String> = page
            .hits
            .iter()
            .map(|hit| hit.reference.name().to_owned())
            .collect();
        prop_assert_eq!(found, model(&items, &filters, sort));
        Ok(())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
}
